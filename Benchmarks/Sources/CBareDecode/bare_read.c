#include "bare_decode.h"
#include "bench_support.h"

#include <stdatomic.h>
#include <stdlib.h>

typedef struct {
    const char *const *paths;
    size_t count;
    atomic_size_t next;
    atomic_uint_fast64_t failures, bytes, checksum;
} read_work;

static void *read_worker(void *argument) {
    read_work *work = argument;
    size_t index;
    while ((index = atomic_fetch_add(&work->next, 1)) < work->count) {
        size_t size = 0;
        uint8_t *file = bare_slurp(work->paths[index], &size);
        if (!file) {
            atomic_fetch_add(&work->failures, 1);
            continue;
        }
        atomic_fetch_add(&work->bytes, size);
        atomic_fetch_add(&work->checksum, bench_checksum(file, size));
        free(file);
    }
    return NULL;
}

bare_decode_stats bare_read_all(const char *const *paths, size_t count, int threads) {
    read_work work = {.paths = paths, .count = count};
    bench_run_threads(threads, read_worker, &work);
    bare_decode_stats stats = {count, work.failures, work.bytes, work.checksum};
    return stats;
}
