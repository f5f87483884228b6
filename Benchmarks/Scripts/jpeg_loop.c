// Baseline for the JPEG plugin: read every JPEG listed on stdin into memory and decode it to
// RGBA8 with TurboJPEG's one-call API (tjDecompress2 to TJPF_RGBA: libjpeg-turbo's accurate
// integer IDCT and fancy upsampling, as the plugin decodes) on T threads, keeping every image
// until the end (as a preloader must). Prints files, decoded bytes, seconds and a checksum of
// sampled pixels.
//
// build: cc -O2 -o jpeg_loop Benchmarks/Scripts/jpeg_loop.c $(pkg-config --cflags --libs libturbojpeg) -lpthread
// usage: find DIR -name '*.jpg' | sort | ./jpeg_loop [THREADS]
#include <turbojpeg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char **paths; static int npaths; static atomic_int next_idx;
static atomic_ullong total_bytes, checksum; static atomic_int failures;
static unsigned char **images;

static unsigned char *slurp(const char *p, size_t *n) {
    FILE *f = fopen(p, "rb"); if (!f) return NULL;
    fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*n); if (fread(b, 1, *n, f) != *n) { free(b); b = NULL; }
    fclose(f); return b;
}

static unsigned char *decode(tjhandle handle, const unsigned char *data, size_t n, size_t *out) {
    int width, height, subsampling, colorspace;
    if (tjDecompressHeader3(handle, data, (unsigned long)n, &width, &height, &subsampling, &colorspace) != 0) return NULL;
    *out = (size_t)width * height * 4;
    unsigned char *pixels = malloc(*out);
    if (tjDecompress2(handle, data, (unsigned long)n, pixels, width, 0, height, TJPF_RGBA, 0) != 0) {
        free(pixels);
        return NULL;
    }
    return pixels;
}

static void *work(void *arg) {
    (void)arg; int i;
    tjhandle handle = tjInitDecompress();
    while ((i = atomic_fetch_add(&next_idx, 1)) < npaths) {
        size_t n, o; unsigned char *b = slurp(paths[i], &n); if (!b) { atomic_fetch_add(&failures, 1); continue; }
        unsigned char *px = decode(handle, b, n, &o); free(b);
        if (!px) { fprintf(stderr, "fail %s: %s\n", paths[i], tjGetErrorStr2(handle)); atomic_fetch_add(&failures, 1); continue; }
        unsigned long long s = 0; for (size_t k = 0; k < o; k += 4093) s += px[k];
        atomic_fetch_add(&checksum, s); atomic_fetch_add(&total_bytes, o);
        images[i] = px;  // kept, as a preloader keeps what it loaded
    }
    tjDestroy(handle);
    return NULL;
}

int main(int argc, char **argv) {
    int t = argc > 1 ? atoi(argv[1]) : 1; if (t < 1) t = 1; if (t > 64) t = 64;
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
    printf("tjDecompress2 threads=%d files=%d failed=%d decoded_MB=%.1f seconds=%.3f MB/s=%.1f checksum=%llu\n", t, npaths,
           (int)failures, total_bytes / 1e6, s, total_bytes / 1e6 / s, (unsigned long long)checksum);
    for (int k = 0; k < npaths; k++) free(images[k]);
    return failures ? 1 : 0;
}
