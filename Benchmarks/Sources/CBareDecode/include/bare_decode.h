// The baseline: a bare C loop over libpng's low-level API, as a C programmer would write it,
// producing the same RGBA8 pixels as Preload's PNG plugin (same explicit transforms).
#ifndef BARE_DECODE_H
#define BARE_DECODE_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t files;
    uint64_t failures;
    uint64_t decoded_bytes;
    uint64_t checksum;  // bench_checksum summed over every image, to compare outputs
} bare_decode_stats;

/// Reads and decodes every file in `paths` on `threads` threads. With `keep` 0 each image is
/// freed at once (the classic decode loop); with `keep` 1 every image is kept, as a preloader
/// must, until `bench_release_kept`.
bare_decode_stats bare_decode_all(const char *const *paths, size_t count, int threads, int keep);

/// The whole file at `path` (`open`, `fstat`, `read`, `close`) in `malloc`'d memory, its length
/// in `size`; NULL if it cannot be opened.
uint8_t *bare_slurp(const char *path, size_t *size);

/// Reads every file in `paths` on `threads` threads (`open`, `fstat`, `read`, `close`, then
/// `free`) and does nothing else: the system calls any loader of loose files pays, which the
/// pipeline's own bookkeeping is measured above. `decoded_bytes` counts the bytes read.
bare_decode_stats bare_read_all(const char *const *paths, size_t count, int threads);
#endif
