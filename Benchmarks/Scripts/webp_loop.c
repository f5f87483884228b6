// Baseline for the WebP plugin: read every WebP listed on stdin into memory and decode it to
// RGBA8 with libwebp on T threads, keeping every image until the end (as a preloader must).
// Prints files, decoded bytes, seconds and a checksum of sampled pixels.
//
// build: cc -O2 -o webp_loop Benchmarks/Scripts/webp_loop.c $(pkg-config --cflags --libs libwebp) -lpthread
// usage: find DIR -name '*.webp' | sort | ./webp_loop [THREADS] [oneshot|incremental] [CHUNK_BYTES]
//   oneshot (the default): WebPGetFeatures, then WebPDecodeRGBAInto into a malloc'd buffer.
//   incremental: WebPINewDecoder on the same external buffer, fed with WebPIUpdate a chunk of
//   the file at a time, as the PreloadWebP plugin does to stop between chunks: one chunk per 256
//   rows, at most 16 (or chunks of CHUNK_BYTES when given).
#include <webp/decode.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char **paths; static int npaths; static atomic_int next_idx;
static atomic_ullong total_bytes, checksum; static atomic_int failures;
static unsigned char **images; static int incremental; static size_t chunk_bytes;

static unsigned char *slurp(const char *p, size_t *n) {
    FILE *f = fopen(p, "rb"); if (!f) return NULL;
    fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*n); if (fread(b, 1, *n, f) != *n) { free(b); b = NULL; }
    fclose(f); return b;
}

static unsigned char *decode(const unsigned char *data, size_t n, size_t *out) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, n, &features) != VP8_STATUS_OK || features.has_animation) return NULL;
    int stride = features.width * 4; *out = (size_t)stride * features.height;
    unsigned char *pixels = malloc(*out);
    if (!incremental) {
        if (!WebPDecodeRGBAInto(data, n, pixels, *out, stride)) { free(pixels); return NULL; }
        return pixels;
    }
    WebPDecBuffer buffer; WebPInitDecBuffer(&buffer);
    buffer.colorspace = MODE_RGBA; buffer.is_external_memory = 1;
    buffer.u.RGBA.rgba = pixels; buffer.u.RGBA.stride = stride; buffer.u.RGBA.size = *out;
    int chunks = features.height / 256; chunks = chunks < 1 ? 1 : chunks > 16 ? 16 : chunks;
    size_t chunk = chunk_bytes ? chunk_bytes : (n + chunks - 1) / chunks;
    WebPIDecoder *decoder = WebPINewDecoder(&buffer);
    VP8StatusCode status = VP8_STATUS_SUSPENDED;
    for (size_t fed = 0; fed < n && status == VP8_STATUS_SUSPENDED;) {
        fed = fed + chunk < n ? fed + chunk : n;
        status = WebPIUpdate(decoder, data, fed);
    }
    WebPIDelete(decoder);
    if (status != VP8_STATUS_OK) { free(pixels); return NULL; }
    return pixels;
}

static void *work(void *arg) {
    (void)arg; int i;
    while ((i = atomic_fetch_add(&next_idx, 1)) < npaths) {
        size_t n, o; unsigned char *b = slurp(paths[i], &n); if (!b) { atomic_fetch_add(&failures, 1); continue; }
        unsigned char *px = decode(b, n, &o); free(b);
        if (!px) { fprintf(stderr, "fail %s\n", paths[i]); atomic_fetch_add(&failures, 1); continue; }
        unsigned long long s = 0; for (size_t k = 0; k < o; k += 4093) s += px[k];
        atomic_fetch_add(&checksum, s); atomic_fetch_add(&total_bytes, o);
        images[i] = px;  // kept, as a preloader keeps what it loaded
    }
    return NULL;
}

int main(int argc, char **argv) {
    int t = argc > 1 ? atoi(argv[1]) : 2;
    incremental = argc > 2 && !strcmp(argv[2], "incremental");
    if (argc > 3) chunk_bytes = (size_t)atol(argv[3]);
    if (t < 1 || t > 64 || (argc > 3 && chunk_bytes == 0)) { fprintf(stderr, "usage: webp_loop [THREADS] [oneshot|incremental] [CHUNK_BYTES]\n"); return 64; }
    char line[4096]; int cap = 1024; paths = malloc(cap * sizeof *paths);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0; if (!*line) continue;
        if (npaths == cap) paths = realloc(paths, (cap *= 2) * sizeof *paths);
        paths[npaths++] = strdup(line);
    }
    images = calloc(npaths ? npaths : 1, sizeof *images);
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
    pthread_t th[64]; for (int k = 0; k < t; k++) pthread_create(&th[k], NULL, work, NULL);
    for (int k = 0; k < t; k++) pthread_join(th[k], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    printf("%s threads=%d files=%d failed=%d decoded_MB=%.1f seconds=%.3f MB/s=%.1f checksum=%llu\n",
           incremental ? "incremental" : "oneshot", t, npaths, (int)failures, total_bytes / 1e6, s,
           total_bytes / 1e6 / s, (unsigned long long)checksum);
    for (int k = 0; k < npaths; k++) free(images[k]);
    return failures ? 1 : 0;
}
