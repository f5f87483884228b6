// The loop every codec baseline shares (jpeg_loop.c, webp_loop.c, qoi_loop.c): the paths listed
// on stdin, read whole and decoded to RGBA8 on THREADS pthreads, every image kept until the end
// (as a preloader must); prints files, decoded bytes, seconds and a checksum of sampled pixels.
//
// A codec's file defines, before including this header:
//   #define LOOP_NAME "tjDecompress2"      (what the printed line says was timed)
//   static void *loop_thread_begin(void);  (per-thread state, or NULL)
//   static void loop_thread_end(void *state);
//   static unsigned char *loop_decode(void *state, const unsigned char *data, size_t size, size_t *decoded);
//     (the decoded RGBA8 pixels in malloc'd memory and their size, or NULL on failure)
//   static void loop_options(int argc, char **argv);  (arguments after THREADS)
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char **loop_paths; static int loop_count; static atomic_int loop_next;
static atomic_ullong loop_bytes, loop_checksum; static atomic_int loop_failures;
static unsigned char **loop_images;

static unsigned char *loop_slurp(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb"); if (!file) return NULL;
    fseek(file, 0, SEEK_END); *size = ftell(file); fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(*size ? *size : 1);
    if (fread(bytes, 1, *size, file) != *size) { free(bytes); bytes = NULL; }
    fclose(file); return bytes;
}

static void *loop_work(void *unused) {
    (void)unused; int i;
    void *state = loop_thread_begin();
    while ((i = atomic_fetch_add(&loop_next, 1)) < loop_count) {
        size_t size, decoded; unsigned char *bytes = loop_slurp(loop_paths[i], &size);
        if (!bytes) { atomic_fetch_add(&loop_failures, 1); continue; }
        unsigned char *pixels = loop_decode(state, bytes, size, &decoded); free(bytes);
        if (!pixels) { fprintf(stderr, "fail %s\n", loop_paths[i]); atomic_fetch_add(&loop_failures, 1); continue; }
        unsigned long long sum = 0; for (size_t k = 0; k < decoded; k += 4093) sum += pixels[k];
        atomic_fetch_add(&loop_checksum, sum); atomic_fetch_add(&loop_bytes, decoded);
        loop_images[i] = pixels;  // kept, as a preloader keeps what it loaded
    }
    loop_thread_end(state);
    return NULL;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 1; if (threads < 1) threads = 1; if (threads > 64) threads = 64;
    loop_options(argc > 2 ? argc - 2 : 0, argv + 2);
    char line[4096]; int capacity = 1024; loop_paths = malloc(capacity * sizeof *loop_paths);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0; if (!*line) continue;
        if (loop_count == capacity) loop_paths = realloc(loop_paths, (capacity *= 2) * sizeof *loop_paths);
        loop_paths[loop_count++] = strdup(line);
    }
    loop_images = calloc(loop_count ? loop_count : 1, sizeof *loop_images);
    struct timespec start, end; clock_gettime(CLOCK_MONOTONIC, &start);
    pthread_t workers[64];
    for (int k = 0; k < threads; k++) pthread_create(&workers[k], NULL, loop_work, NULL);
    for (int k = 0; k < threads; k++) pthread_join(workers[k], NULL);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    printf("%s threads=%d files=%d failed=%d decoded_MB=%.1f seconds=%.3f MB/s=%.1f checksum=%llu\n", LOOP_NAME, threads, loop_count,
           (int)loop_failures, loop_bytes / 1e6, seconds, loop_bytes / 1e6 / seconds, (unsigned long long)loop_checksum);
    for (int k = 0; k < loop_count; k++) free(loop_images[k]);
    return loop_failures ? 1 : 0;
}
