#include "bare_inflate.h"
#include "bench_support.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

typedef struct {
    const char *path;
    const bare_pack_entry *entries;
    size_t count;
    uint8_t **kept;  // one slot per entry when keeping, else NULL
    atomic_size_t next;
    atomic_uint_fast64_t failures, raw, checksum;
} shared_work;

static int read_fully(int fd, uint8_t *into, uint64_t count, uint64_t offset) {
    uint64_t done = 0;
    while (done < count) {
        ssize_t got = pread(fd, into + done, count - done, (off_t)(offset + done));
        if (got <= 0) return 0;
        done += (uint64_t)got;
    }
    return 1;
}

static void *worker(void *argument) {
    shared_work *work = argument;
    int fd = open(work->path, O_RDONLY | O_CLOEXEC);
    uint8_t *input = NULL;
    size_t capacity = 0;
    size_t index;
    while (fd >= 0 && (index = atomic_fetch_add(&work->next, 1)) < work->count) {
        const bare_pack_entry *entry = &work->entries[index];
        uint8_t *output = malloc(entry->raw ? entry->raw : 1);
        int ok = output != NULL;
        if (ok && entry->method == 0) {
            ok = read_fully(fd, output, entry->raw, entry->offset);
        } else if (ok) {
            if (entry->stored > capacity) {
                free(input);
                capacity = entry->stored;
                input = malloc(capacity);
            }
            uLongf made = entry->raw;
            ok = input && read_fully(fd, input, entry->stored, entry->offset)
                && uncompress(output, &made, input, entry->stored) == Z_OK && made == entry->raw;
        }
        if (!ok) {
            free(output);
            atomic_fetch_add(&work->failures, 1);
            continue;
        }
        atomic_fetch_add(&work->checksum, bench_checksum(output, entry->raw));
        atomic_fetch_add(&work->raw, entry->raw);
        if (work->kept) {
            work->kept[index] = output;
        } else {
            free(output);
        }
    }
    free(input);
    if (fd >= 0) close(fd);
    return NULL;
}

bare_inflate_stats bare_inflate_all(const char *path, const bare_pack_entry *entries, size_t count, int threads, int keep) {
    shared_work work = {.path = path, .entries = entries, .count = count, .kept = keep ? bench_keep_slots(count) : NULL};
    bench_run_threads(threads, worker, &work);
    bare_inflate_stats stats = {count, work.failures, work.raw, work.checksum};
    return stats;
}
