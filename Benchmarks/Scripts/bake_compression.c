// Should entries of a baked pack (.bake: raw decoded RGBA8 textures, each a contiguous range that
// the game maps and hands to the engine as views) be compressed per entry with LZ4 or zstd?
//
// Reads a .bake, compresses every texture entry separately (LZ4 default, LZ4 HC 9, zstd 1 and 3,
// optionally zstd 19), reports sizes, then writes one contiguous pack file per variant and times,
// on a warm and on a cold page cache (posix_fadvise DONTNEED after fsync; verified with mincore):
//   raw-touch  mmap the raw pack, read one byte per 4 KiB page of every entry (the zero-copy case)
//   raw-crc    mmap the raw pack, zlib crc32 over every byte of every entry
//   raw-copy   mmap the raw pack, memcpy every entry into a fresh malloc'ed buffer
//   raw-read   read() every entry from the raw pack into a fresh malloc'ed buffer
//   <codec>    mmap the compressed pack, decompress every entry, either into one reused, pre-touched
//              buffer per thread ("reuse") or into a fresh malloc'ed buffer per entry ("fresh",
//              the realistic case: first-touch zeroing of new pages is paid)
// each with 1 and 2 threads (threads take entries from a shared atomic counter). Fresh buffers stay
// alive until the run ends (as a game keeps its textures) and are freed outside the timed region;
// M_MMAP_THRESHOLD is pinned at 128 KiB so big buffers really are fresh mmap'ed memory every run.
// Each timed run includes mmap/open of the pack; munmap/close are outside the timed region.
// Variants run round-robin (the host's load varies); prints the first run and the median of RUNS
// runs (default 5), in ms.
//
// Build:  cc -O2 -o /tmp/bakecomp/bc Benchmarks/Scripts/bake_compression.c -llz4 -lzstd -lz -lpthread
//         (Debian: apt-get install liblz4-dev libzstd-dev zlib1g-dev)
// Run:    /tmp/bakecomp/bc /tmp/bakecomp/game.bake /tmp/bakecomp/packs [RUNS] [--zstd19]
// The .bake comes from: python3 Benchmarks/Scripts/make_game_corpus.py /tmp/bakecomp/game &&
//         (cd /tmp/bakecomp && preload bake game -o game.bake)
// .bake layout used: header u64 @24 = index offset, u32 @40 = entry count; index records of 64
// bytes: u64 data offset @+0, u64 data length @+8, kind u8 @+62 (1 = texture).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <lz4.h>
#include <lz4hc.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

enum { C_RAW, C_LZ4, C_LZ4HC9, C_ZSTD1, C_ZSTD3, C_ZSTD19, NCODECS };
static const char *codecNames[NCODECS] = {"raw", "lz4", "lz4hc9", "zstd1", "zstd3", "zstd19"};

typedef struct { uint64_t offset, length; } Range;

static size_t entryCount;
static Range *rawEntries;          // entries in the source .bake (and, same offsets, in raw pack)
static Range *packed[NCODECS];     // per codec: ranges in that codec's pack file
static uint64_t packSize[NCODECS];
static char packPath[NCODECS][4096];
static size_t maxEntry;
static int runs = 5;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what) { perror(what); exit(1); }

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

static int cmpDouble(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// ---------------------------------------------------------------- one timed run

typedef enum { M_TOUCH, M_CRC, M_COPY, M_READ, M_DEC_REUSE, M_DEC_FRESH } Mode;
static const char *modeNames[] = {"touch", "crc", "copy", "read", "reuse", "fresh"};

typedef struct {
    int codec; Mode mode;
    const uint8_t *map; int fd;
    void **outputs;                // fresh buffers, one per entry
    atomic_size_t next;
    atomic_ulong check;            // defeats dead-code elimination
} Job;

static void *work(void *arg) {
    Job *job = arg;
    unsigned long check = 0;
    uint8_t *reuse = NULL;
    ZSTD_DCtx *dctx = NULL;
    int codec = job->codec;
    if (job->mode == M_DEC_REUSE) {
        reuse = malloc(maxEntry);
        memset(reuse, 1, maxEntry);   // pre-touched: no first-touch cost in the loop
    }
    if (codec == C_ZSTD1 || codec == C_ZSTD3 || codec == C_ZSTD19) dctx = ZSTD_createDCtx();
    for (;;) {
        size_t i = atomic_fetch_add(&job->next, 1);
        if (i >= entryCount) break;
        size_t rawLength = rawEntries[i].length;
        const uint8_t *src = job->map + packed[codec][i].offset;
        size_t srcLength = packed[codec][i].length;
        switch (job->mode) {
        case M_TOUCH:
            for (size_t o = 0; o < srcLength; o += 4096) check += src[o];
            check += src[srcLength - 1];
            break;
        case M_CRC:
            check += crc32(0, src, (uInt)srcLength);
            break;
        case M_COPY: {
            uint8_t *dst = malloc(srcLength);
            memcpy(dst, src, srcLength);
            job->outputs[i] = dst;
            check += dst[srcLength / 2];
            break;
        }
        case M_READ: {
            uint8_t *dst = malloc(rawLength);
            size_t done = 0;
            while (done < rawLength) {
                ssize_t n = pread(job->fd, dst + done, rawLength - done, packed[codec][i].offset + done);
                if (n <= 0) die("pread");
                done += n;
            }
            job->outputs[i] = dst;
            check += dst[rawLength / 2];
            break;
        }
        case M_DEC_REUSE:
        case M_DEC_FRESH: {
            uint8_t *dst = job->mode == M_DEC_REUSE ? reuse : malloc(rawLength);
            size_t got;
            if (codec == C_LZ4 || codec == C_LZ4HC9) {
                int n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)srcLength, (int)rawLength);
                got = n < 0 ? 0 : (size_t)n;
            } else {
                got = ZSTD_decompressDCtx(dctx, dst, rawLength, src, srcLength);
                if (ZSTD_isError(got)) got = 0;
            }
            if (got != rawLength) { fprintf(stderr, "decode failed: %s entry %zu\n", codecNames[codec], i); exit(1); }
            if (job->mode == M_DEC_FRESH) job->outputs[i] = dst;
            check += dst[rawLength / 2];
            break;
        }
        }
    }
    free(reuse);
    ZSTD_freeDCtx(dctx);
    atomic_fetch_add(&job->check, check);
    return NULL;
}

static double fractionResident(const char *path) {
    int fd = open(path, O_RDONLY);
    struct stat st; fstat(fd, &st);
    void *m = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    size_t pages = (st.st_size + 4095) / 4096, resident = 0;
    unsigned char *vec = malloc(pages);
    if (mincore(m, st.st_size, vec) != 0) die("mincore");
    for (size_t p = 0; p < pages; p++) resident += vec[p] & 1;
    free(vec); munmap(m, st.st_size); close(fd);
    return (double)resident / pages;
}

static void dropCache(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) die(path);
    fdatasync(fd);
    if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0) die("posix_fadvise");
    close(fd);
}

static void warmCache(const char *path) {
    int fd = open(path, O_RDONLY);
    static char buffer[1 << 20];
    while (read(fd, buffer, sizeof buffer) > 0) {}
    close(fd);
}

static double worstResidentAfterDrop;

static double timedRun(int codec, Mode mode, int threads, int cold) {
    const char *path = packPath[codec];
    if (cold) {
        dropCache(path);
        double r = fractionResident(path);
        if (r > worstResidentAfterDrop) worstResidentAfterDrop = r;
    }
    Job job = {.codec = codec, .mode = mode};
    atomic_init(&job.next, 0);
    atomic_init(&job.check, 0);
    job.outputs = calloc(entryCount, sizeof(void *));
    double begin = now();
    job.fd = open(path, O_RDONLY);
    if (job.fd < 0) die(path);
    void *map = NULL;
    if (mode != M_READ) {
        map = mmap(NULL, packSize[codec], PROT_READ, MAP_SHARED, job.fd, 0);
        if (map == MAP_FAILED) die("mmap");
        job.map = map;
    }
    pthread_t tids[8];
    for (int t = 1; t < threads; t++) pthread_create(&tids[t], NULL, work, &job);
    work(&job);
    for (int t = 1; t < threads; t++) pthread_join(tids[t], NULL);
    double seconds = now() - begin;
    if (map) munmap(map, packSize[codec]);
    close(job.fd);
    for (size_t i = 0; i < entryCount; i++) free(job.outputs[i]);
    free(job.outputs);
    if (atomic_load(&job.check) == 42) printf(" ");
    return seconds * 1e3;
}

typedef struct { int codec; Mode mode; int threads; double ms[64]; } Variant;

// Variants are run round-robin (round r runs every variant once), so slow spells of the host
// hit all of them alike instead of one variant's five runs.
static void measureAll(Variant *variants, int count, int cold) {
    if (!cold) for (int c = 0; c < NCODECS; c++) if (packPath[c][0]) warmCache(packPath[c]);
    for (int r = 0; r < runs; r++)
        for (int v = 0; v < count; v++)
            variants[v].ms[r] = timedRun(variants[v].codec, variants[v].mode, variants[v].threads, cold);
    uint64_t rawBytes = 0;
    for (size_t i = 0; i < entryCount; i++) rawBytes += rawEntries[i].length;
    for (int v = 0; v < count; v++) {
        double t[64];
        memcpy(t, variants[v].ms, runs * sizeof(double));
        double first = t[0];
        qsort(t, runs, sizeof(double), cmpDouble);
        double median = t[runs / 2];
        char name[64];
        snprintf(name, sizeof name, "%s-%s", codecNames[variants[v].codec], modeNames[variants[v].mode]);
        printf("%-5s %-14s %dT  median %8.1f ms  first %8.1f ms  min %8.1f  max %8.1f  (%.2f GB/s decoded)\n",
               cold ? "cold" : "warm", name, variants[v].threads, median, first, t[0], t[runs - 1],
               rawBytes / (median * 1e6));
    }
    fflush(stdout);
}

// ---------------------------------------------------------------- setup

static void writeAll(int fd, const void *data, size_t length) {
    const uint8_t *p = data;
    while (length) {
        ssize_t n = write(fd, p, length);
        if (n <= 0) die("write");
        p += n; length -= n;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s GAME.bake OUTDIR [RUNS] [--zstd19]\n", argv[0]);
        return 2;
    }
    int withZstd19 = 0;
    for (int a = 3; a < argc; a++) {
        if (strcmp(argv[a], "--zstd19") == 0) withZstd19 = 1;
        else runs = atoi(argv[a]);
    }
    if (runs < 1 || runs > 64) runs = 5;
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);   // fixed threshold: no dynamic growth, fresh mmaps
    mkdir(argv[2], 0755);

    // read the .bake
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) die(argv[1]);
    struct stat st; fstat(fd, &st);
    const uint8_t *bake = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (bake == MAP_FAILED) die("mmap bake");
    uint64_t indexOffset = rd64(bake + 24);
    uint32_t count = rd32(bake + 40);
    Range *all = calloc(count, sizeof(Range));
    rawEntries = calloc(count, sizeof(Range));
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *rec = bake + indexOffset + 64 * (uint64_t)i;
        if (rec[62] != 1) continue;
        all[entryCount].offset = rd64(rec);
        all[entryCount].length = rd64(rec + 8);
        entryCount++;
    }
    uint64_t rawBytes = 0;
    for (size_t i = 0; i < entryCount; i++) {
        rawBytes += all[i].length;
        if (all[i].length > maxEntry) maxEntry = all[i].length;
    }
    printf("%s: %zu texture entries of %u, %.1f MB decoded, largest %.1f MB; %d runs per measurement\n",
           argv[1], entryCount, count, rawBytes / 1e6, maxEntry / 1e6, runs);

    // raw pack: entries contiguous at 4 KiB-aligned offsets (as the bake lays them out)
    int ncodecs = withZstd19 ? NCODECS : C_ZSTD19;
    for (int c = 0; c < ncodecs; c++) {
        packed[c] = calloc(entryCount, sizeof(Range));
        snprintf(packPath[c], sizeof packPath[c], "%s/pack.%s", argv[2], codecNames[c]);
    }
    size_t bound = LZ4_compressBound((int)maxEntry);
    if (ZSTD_compressBound(maxEntry) > bound) bound = ZSTD_compressBound(maxEntry);
    uint8_t *scratch = malloc(bound);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    static const char zeros[4096];
    printf("\n%-8s %12s %8s %12s %14s\n", "codec", "bytes", "ratio", "compress s", "compress MB/s");
    for (int c = 0; c < ncodecs; c++) {
        int out = open(packPath[c], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0) die(packPath[c]);
        uint64_t position = 0;
        double compressSeconds = 0;
        for (size_t i = 0; i < entryCount; i++) {
            const uint8_t *src = bake + all[i].offset;
            size_t n = all[i].length;
            const void *data = src;
            double t0 = now();
            switch (c) {
            case C_RAW: break;
            case C_LZ4: n = LZ4_compress_default((const char *)src, (char *)scratch, (int)n, (int)bound); data = scratch; break;
            case C_LZ4HC9: n = LZ4_compress_HC((const char *)src, (char *)scratch, (int)n, (int)bound, 9); data = scratch; break;
            default: {
                int level = c == C_ZSTD1 ? 1 : c == C_ZSTD3 ? 3 : 19;
                n = ZSTD_compressCCtx(cctx, scratch, bound, src, n, level);
                if (ZSTD_isError(n)) { fprintf(stderr, "zstd: %s\n", ZSTD_getErrorName(n)); return 1; }
                data = scratch;
            }
            }
            compressSeconds += now() - t0;
            if (n == 0) { fprintf(stderr, "compress failed\n"); return 1; }
            if (c == C_RAW && position % 4096) {
                size_t pad = 4096 - position % 4096;
                writeAll(out, zeros, pad); position += pad;
            }
            packed[c][i].offset = position; packed[c][i].length = n;
            writeAll(out, data, n);
            position += n;
        }
        fsync(out);
        close(out);
        packSize[c] = position;
        uint64_t payload = 0;
        for (size_t i = 0; i < entryCount; i++) payload += packed[c][i].length;
        printf("%-8s %12llu %8.3f %12.2f %14.0f\n", codecNames[c], (unsigned long long)payload,
               (double)rawBytes / payload, compressSeconds, c == C_RAW ? 0 : rawBytes / compressSeconds / 1e6);
        fflush(stdout);
    }
    ZSTD_freeCCtx(cctx);
    free(scratch);
    memcpy(rawEntries, all, entryCount * sizeof(Range));   // only lengths are used from here on

    // correctness: decode every entry of every codec once and compare to the source
    for (int c = C_LZ4; c < ncodecs; c++) {
        int pfd = open(packPath[c], O_RDONLY);
        const uint8_t *map = mmap(NULL, packSize[c], PROT_READ, MAP_SHARED, pfd, 0);
        uint8_t *dst = malloc(maxEntry);
        for (size_t i = 0; i < entryCount; i++) {
            size_t got = c <= C_LZ4HC9
                ? (size_t)LZ4_decompress_safe((const char *)map + packed[c][i].offset, (char *)dst, (int)packed[c][i].length, (int)all[i].length)
                : ZSTD_decompress(dst, all[i].length, map + packed[c][i].offset, packed[c][i].length);
            if (got != all[i].length || memcmp(dst, bake + all[i].offset, got) != 0) {
                fprintf(stderr, "round trip mismatch %s entry %zu\n", codecNames[c], i); return 1;
            }
        }
        free(dst); munmap((void *)map, packSize[c]); close(pfd);
    }
    printf("round trip verified for every codec and entry\n");

    static Variant variants[64];
    int nvariants = 0;
    for (int threads = 1; threads <= 2; threads++) {
        Mode rawModes[] = {M_TOUCH, M_CRC, M_COPY, M_READ};
        for (int m = 0; m < 4; m++) variants[nvariants++] = (Variant){C_RAW, rawModes[m], threads, {0}};
        for (int c = C_LZ4; c < ncodecs; c++) {
            variants[nvariants++] = (Variant){c, M_DEC_REUSE, threads, {0}};
            variants[nvariants++] = (Variant){c, M_DEC_FRESH, threads, {0}};
        }
    }
    for (int cold = 0; cold <= 1; cold++) {
        printf("\n== %s page cache ==\n", cold ? "COLD (fdatasync + POSIX_FADV_DONTNEED before each run)" : "WARM");
        measureAll(variants, nvariants, cold);
    }
    if (worstResidentAfterDrop > 0)
        printf("\nnote: after a DONTNEED, up to %.1f%% of a pack was still resident\n", worstResidentAfterDrop * 100);
    else
        printf("\ncold runs: mincore showed 0%% of each pack resident after every DONTNEED\n");
    return 0;
}
