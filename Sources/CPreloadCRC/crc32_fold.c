// CRC-32 by carry-less multiplication (PCLMULQDQ), folding 64 bytes per step.
//
// The CRC of a message is the message, as a polynomial over GF(2), modulo the CRC polynomial P.
// A 128-bit block that sits D bits before the end contributes block * x^D mod P, so a block can
// be moved ("folded") forward by D bits with two 64x64 carry-less products against the
// precomputed constants x^(D+32) mod P and x^(D-32) mod P (bit-reflected, as this CRC is), and
// XORed into the block already there. Four running blocks fold 512 bits per step; they are
// folded into one, that one is reduced from 128 to 64 and 32 bits, and Barrett reduction gives
// the remainder. The constants are those of the method's description (Gopal et al., "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ Instruction", Intel, 2009) for
// P = 0x04C11DB7; the tests compare every length and alignment against zlib's crc32.

#include "preload_crc32.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>

#define PRELOAD_CRC_TARGET __attribute__((target("pclmul,sse4.1")))

PRELOAD_CRC_TARGET static inline __m128i fold(__m128i block, __m128i constants, __m128i next) {
    __m128i low = _mm_clmulepi64_si128(block, constants, 0x00);
    __m128i high = _mm_clmulepi64_si128(block, constants, 0x11);
    return _mm_xor_si128(_mm_xor_si128(low, high), next);
}

static inline __m128i load(const uint8_t *bytes) { return _mm_loadu_si128((const __m128i *)bytes); }

/// The CRC register (not inverted) over `count` bytes, `count` >= 64 and a multiple of 16.
PRELOAD_CRC_TARGET static uint32_t fold_all(uint32_t crc, const uint8_t *bytes, size_t count) {
    const __m128i by4 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);  // x^(512+32), x^(512-32)
    const __m128i by1 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);  // x^(128+32), x^(128-32)
    const __m128i to32 = _mm_set_epi64x(0, 0x163cd6124);           // x^64
    const __m128i barrett = _mm_set_epi64x(0x1f7011641, 0x1db710641);  // floor(x^64 / P), P
    const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);

    __m128i x1 = _mm_xor_si128(load(bytes), _mm_cvtsi32_si128((int)crc));
    __m128i x2 = load(bytes + 16), x3 = load(bytes + 32), x4 = load(bytes + 48);
    bytes += 64;
    count -= 64;
    while (count >= 64) {
        x1 = fold(x1, by4, load(bytes));
        x2 = fold(x2, by4, load(bytes + 16));
        x3 = fold(x3, by4, load(bytes + 32));
        x4 = fold(x4, by4, load(bytes + 48));
        bytes += 64;
        count -= 64;
    }
    x1 = fold(x1, by1, x2);
    x1 = fold(x1, by1, x3);
    x1 = fold(x1, by1, x4);
    while (count >= 16) {
        x1 = fold(x1, by1, load(bytes));
        bytes += 16;
        count -= 16;
    }
    // 128 bits to 64: the low half moves up by 64 bits onto the high half.
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, by1, 0x10), _mm_srli_si128(x1, 8));
    // 64 bits to 32.
    __m128i low = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), to32, 0x00);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 4), low);
    // Barrett reduction to the 32-bit remainder.
    __m128i quotient = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), barrett, 0x10), low32);
    x1 = _mm_xor_si128(x1, _mm_clmulepi64_si128(quotient, barrett, 0x00));
    return (uint32_t)_mm_extract_epi32(x1, 1);
}

int preload_crc32_is_accelerated(void) {
    static _Atomic int known = -1;
    int value = atomic_load_explicit(&known, memory_order_relaxed);
    if (value < 0) {
        unsigned a, b, c, d;
        value = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_PCLMUL) && (c & bit_SSE4_1);
        atomic_store_explicit(&known, value, memory_order_relaxed);
    }
    return value;
}

uint32_t preload_crc32_prefix(uint32_t crc, const uint8_t *bytes, size_t count, size_t *consumed) {
    if (count < 64 || !preload_crc32_is_accelerated()) {
        *consumed = 0;
        return crc;
    }
    size_t whole = count & ~(size_t)15;
    *consumed = whole;
    return ~fold_all(~crc, bytes, whole);
}

#else

int preload_crc32_is_accelerated(void) { return 0; }

uint32_t preload_crc32_prefix(uint32_t crc, const uint8_t *bytes, size_t count, size_t *consumed) {
    (void)bytes;
    (void)count;
    *consumed = 0;
    return crc;
}

#endif
