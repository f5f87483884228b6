#include "bench_support.h"

#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>

void bench_run_threads(int threads, void *(*worker)(void *), void *argument) {
    pthread_t ids[64];
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    for (int t = 0; t < threads; t++) pthread_create(&ids[t], NULL, worker, argument);
    for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
}

static uint8_t **kept_slots;
static size_t kept_count;

void bench_release_kept(void) {
    for (size_t i = 0; i < kept_count; i++) free(kept_slots[i]);
    free(kept_slots);
    kept_slots = NULL;
    kept_count = 0;
}

uint8_t **bench_keep_slots(size_t count) {
    bench_release_kept();
    kept_slots = calloc(count ? count : 1, sizeof *kept_slots);
    kept_count = count;
    return kept_slots;
}

uint64_t bench_checksum(const uint8_t *bytes, size_t count) {
    uint64_t sum = 0;
    for (size_t k = 0; k < count; k += 4093) sum += bytes[k];
    return sum;
}

void bench_release_free_memory(void) { malloc_trim(0); }
