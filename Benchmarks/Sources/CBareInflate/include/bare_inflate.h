// The baseline for pack reading: a bare C loop over zlib, as a C programmer would write it.
#ifndef BARE_INFLATE_H
#define BARE_INFLATE_H
#include <stddef.h>
#include <stdint.h>

/// Where one entry's bytes are in the pack, and how they are stored (0 as is, 1 a zlib stream).
typedef struct {
    uint64_t offset;
    uint64_t stored;
    uint64_t raw;
    int32_t method;
} bare_pack_entry;

typedef struct {
    uint64_t entries;
    uint64_t failures;
    uint64_t raw_bytes;
    uint64_t checksum;  // bench_checksum summed over every entry, to compare outputs
} bare_inflate_stats;

/// Reads every entry of the pack at `path` on `threads` threads: `pread` of the stored bytes into
/// a per-thread buffer, then zlib's one-shot `uncompress` into a fresh buffer of the raw size (a
/// stored entry is read straight into it). With `keep` 0 each result is freed at once; with
/// `keep` 1 all are kept, as a preloader must, until `bench_release_kept`.
bare_inflate_stats bare_inflate_all(const char *path, const bare_pack_entry *entries, size_t count, int threads, int keep);
#endif
