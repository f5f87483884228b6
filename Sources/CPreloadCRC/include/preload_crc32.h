#ifndef PRELOAD_CRC32_H
#define PRELOAD_CRC32_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32 (the zlib/PNG/zip polynomial) of the longest prefix of `bytes` this code speeds up:
/// on x86-64 with PCLMULQDQ, a multiple of 16 bytes once there are at least 64; otherwise none.
/// `crc` and the result use zlib's convention (0 to start; pass a previous result to continue).
/// Returns how many bytes it consumed in `*consumed`; the caller finishes the rest with zlib.
uint32_t preload_crc32_prefix(uint32_t crc, const uint8_t *bytes, size_t count, size_t *consumed);

/// Whether this machine runs the fast path (for benchmarks and reports).
int preload_crc32_is_accelerated(void);

#endif
