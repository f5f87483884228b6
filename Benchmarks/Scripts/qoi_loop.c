// Baseline: read every QOI file listed on stdin into memory and decode it to RGBA8 with the
// reference decoder's one call (qoi_decode, qoi.h), on T threads, keeping every image (as a
// preloader must) until all are done. Prints files, decoded bytes, seconds, and a checksum.
// build: cc -O2 -o /tmp/qoi_loop Benchmarks/Scripts/qoi_loop.c -lpthread   (qoi.h: Debian's libqoi-dev)
// usage: find corpus -name '*.qoi' | /tmp/qoi_loop THREADS
#define QOI_IMPLEMENTATION
#include <qoi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char **paths; static void **images; static int npaths; static atomic_int next_idx;
static atomic_ullong total_bytes, checksum; static atomic_int failures;

static unsigned char *slurp(const char *p, size_t *n) {
    FILE *f = fopen(p, "rb"); if (!f) return NULL;
    fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*n); if (fread(b, 1, *n, f) != *n) { free(b); b = NULL; }
    fclose(f); return b;
}

static void *work(void *arg) {
    (void)arg; int i;
    while ((i = atomic_fetch_add(&next_idx, 1)) < npaths) {
        size_t n; unsigned char *b = slurp(paths[i], &n); if (!b) { atomic_fetch_add(&failures, 1); continue; }
        qoi_desc desc; unsigned char *px = qoi_decode(b, (int)n, &desc, 4); free(b);
        if (!px) { fprintf(stderr, "fail %s\n", paths[i]); atomic_fetch_add(&failures, 1); continue; }
        size_t o = (size_t)desc.width * desc.height * 4;
        unsigned long long s = 0; for (size_t k = 0; k < o; k += 4093) s += px[k];
        atomic_fetch_add(&checksum, s); atomic_fetch_add(&total_bytes, o);
        images[i] = px;  // kept, as a preloader keeps what it loads
    }
    return NULL;
}

int main(int argc, char **argv) {
    int t = argc > 1 ? atoi(argv[1]) : 1;
    char line[4096]; int cap = 1024; paths = malloc(cap * sizeof *paths);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0; if (!*line) continue;
        if (npaths == cap) paths = realloc(paths, (cap *= 2) * sizeof *paths);
        paths[npaths++] = strdup(line);
    }
    images = calloc(npaths ? npaths : 1, sizeof *images);
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
    pthread_t th[64]; if (t > 64) t = 64;
    for (int k = 0; k < t; k++) pthread_create(&th[k], NULL, work, NULL);
    for (int k = 0; k < t; k++) pthread_join(th[k], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    printf("qoi_decode threads=%d files=%d failed=%d decoded_MB=%.1f seconds=%.3f MB/s=%.1f checksum=%llu\n", t, npaths,
           (int)failures, total_bytes / 1e6, s, total_bytes / 1e6 / s, (unsigned long long)checksum);
    for (int i = 0; i < npaths; i++) free(images[i]);
    return 0;
}
