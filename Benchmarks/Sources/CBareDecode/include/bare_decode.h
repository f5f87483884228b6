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
    uint64_t checksum;  // sum of every 4093rd byte of every image, to compare outputs
} bare_decode_stats;

/// Reads and decodes every file in `paths` on `threads` threads. With `keep` 0 each image is
/// freed at once (the classic decode loop); with `keep` 1 every image is kept, as a preloader
/// must, and `bare_release_kept` frees them later.
bare_decode_stats bare_decode_all(const char *const *paths, size_t count, int threads, int keep);

/// Frees the images kept by the last `bare_decode_all(..., keep = 1)`.
void bare_release_kept(void);

/// The same checksum over one decoded image, for the pipeline's side of the comparison.
uint64_t bare_checksum(const uint8_t *pixels, size_t count);
/// Returns memory freed by earlier runs to the system (glibc `malloc_trim`), so peak RSS
/// measurements of the next run start from what is really in use.
void bench_release_free_memory(void);
#endif
