// What the bare C baselines share: threads, kept results, a checksum, memory release.
#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H
#include <stddef.h>
#include <stdint.h>

/// Runs `worker(argument)` on `threads` pthreads (1 to 64) and waits for them all.
void bench_run_threads(int threads, void *(*worker)(void *), void *argument);

/// Frees what the last run kept, then returns `count` empty slots for this run's results (each
/// a `malloc`'d buffer), freed by the next call or by `bench_release_kept`.
uint8_t **bench_keep_slots(size_t count);

/// Frees the results kept in the slots.
void bench_release_kept(void);

/// Sum of every 4093rd byte: cheap, and enough to tell two sides' outputs apart.
uint64_t bench_checksum(const uint8_t *bytes, size_t count);

/// Returns memory freed by earlier runs to the system (glibc `malloc_trim`), so peak RSS
/// measurements of the next run start from what is really in use.
void bench_release_free_memory(void);
#endif
