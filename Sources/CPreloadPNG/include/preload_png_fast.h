// The fast path for the PNGs games ship: 8-bit grey, grey+alpha, RGB, RGBA and palette images,
// not interlaced, whose every chunk libpng would read without a warning.
//
// One walk over the chunks checks every CRC (libdeflate's CRC-32) and every chunk libpng would
// judge, and declines (a reason, no error) whatever it cannot prove libpng reads silently: a
// damaged file, an unusual chunk, 16-bit or sub-byte samples, interlacing. libpng then decodes the file as
// before, so the fast path never changes pixels, warnings or errors; it only takes less time.
//
// The image data is inflated in one call of libdeflate (opened at run time by the caller, which
// passes its functions) straight into the texture's own memory: RGBA rows are unfiltered in
// place over the filtered rows they came from; the other layouts are inflated into the tail of
// the texture's memory and expanded forward to RGBA8 a row at a time. No other buffer the size
// of the image exists.
#ifndef PRELOAD_PNG_FAST_H
#define PRELOAD_PNG_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "preload_png.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The libdeflate functions the fast path calls (declared here: the package builds without
/// libdeflate's headers). The results are libdeflate's: 0 success, 1 bad data, 2 short
/// output, 3 insufficient space.
typedef struct {
    void *(*alloc_decompressor)(void);
    void (*free_decompressor)(void *decompressor);
    int (*zlib_decompress_ex)(void *decompressor, const void *in, size_t in_size, void *out,
                              size_t out_available, size_t *actual_in, size_t *actual_out);
    uint32_t (*crc32)(uint32_t crc, const void *bytes, size_t size);
} preload_png_deflate_functions;

typedef struct preload_png_fast preload_png_fast;

/// Walks every chunk of the `size` bytes at `data` (which must outlive the result). Returns the
/// plan of the decode, with `info` filled in as `preload_png_read_header` would (RGBA8), or NULL
/// with `*reason` saying why the fast path declines (a static string). `functions` must stay
/// valid for the life of the process.
preload_png_fast *preload_png_fast_create(const uint8_t *data, size_t size,
                                          const preload_png_deflate_functions *functions,
                                          preload_png_info *info, const char **reason);

void preload_png_fast_destroy(preload_png_fast *fast);

/// The bytes of memory the decode works in: the decoded bytes, plus one a row for RGBA images,
/// whose filtered rows (a filter byte each) are unfiltered in place.
uint64_t preload_png_fast_working_bytes(const preload_png_fast *fast);

/// Inflates the image data into `buffer` (`preload_png_fast_working_bytes` bytes) and checks
/// every row's filter byte. Returns 1 when the rows can be read, 0 with `*reason` set when the
/// data is not what libpng would read silently (the caller then decodes with libpng), -1 when
/// memory ran out.
int preload_png_fast_inflate(preload_png_fast *fast, uint8_t *buffer, const char **reason);

/// Unfilters rows `first_row ..< first_row + row_count` into RGBA8 rows at the start of
/// `buffer` (4 * width bytes each), after `preload_png_fast_inflate`. Rows go in order, each
/// band starting where the last ended.
void preload_png_fast_rows(preload_png_fast *fast, uint8_t *buffer, uint32_t first_row,
                           uint32_t row_count);

/// Whether the fast path's decodes on the calling thread use the CPU's vector instructions (1,
/// where it has them; every thread starts so) or its portable scalar code (0): for tests, which
/// check that both give the same pixels. Other threads' decodes are unaffected.
void preload_png_fast_set_vectors(int enabled);

/// What `preload_png_fast_set_vectors` last set on the calling thread (1 if it never ran there).
int preload_png_fast_vectors(void);

#ifdef __cplusplus
}
#endif

#endif
