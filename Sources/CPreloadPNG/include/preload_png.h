// A small shim over libpng's low-level read API.
//
// libpng reports errors by longjmp-ing out of whatever function is running. Swift cannot be
// unwound that way, so every libpng call happens inside one of the functions below, each of which
// owns its own setjmp frame and turns a libpng error into a returned status code plus a message.
//
// The transforms are explicit and follow the conformance rules in Tests/PreloadPNGTests/Fixtures/
// pngsuite/README.md: no gamma correction, no background compositing, tRNS becomes alpha, gray is
// replicated to RGB, sub-byte samples are scaled by bit replication, 16-bit samples keep the high
// byte (or stay 16-bit in host byte order when asked), Adam7 is de-interlaced.
#ifndef PRELOAD_PNG_H
#define PRELOAD_PNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a shim call reports.
typedef enum {
    PRELOAD_PNG_OK = 0,
    /// The data does not start with the 8-byte PNG signature.
    PRELOAD_PNG_NOT_PNG = 1,
    /// The data ended before the PNG stream did.
    PRELOAD_PNG_TRUNCATED = 2,
    /// libpng rejected the stream; `preload_png_message` says why.
    PRELOAD_PNG_CORRUPT = 3,
    /// Not returned: the caller checks the size `preload_png_read_header` gives against its
    /// limits, before `preload_png_start` allocates anything the size of a row.
    PRELOAD_PNG_TOO_LARGE = 4,
    /// libpng could not allocate its own structures.
    PRELOAD_PNG_OUT_OF_MEMORY = 5,
    /// The calls were made out of order (a bug in the caller).
    PRELOAD_PNG_MISUSE = 6,
} preload_png_status;

/// The image as stored, and the layout of the rows the shim will produce.
typedef struct {
    uint32_t width;
    uint32_t height;
    uint8_t bit_depth;         // as stored: 1, 2, 4, 8 or 16
    uint8_t color_type;        // as stored: 0, 2, 3, 4 or 6
    uint8_t interlaced;        // 1 for Adam7
    uint8_t bytes_per_sample;  // of the output: 1 (RGBA8) or 2 (RGBA16, host byte order)
    uint32_t passes;           // 7 for Adam7, else 1: rows are read `passes * height` times (set by `preload_png_start`)
    uint64_t row_bytes;        // width * 4 * bytes_per_sample
    uint64_t decoded_bytes;    // row_bytes * height
} preload_png_info;

typedef struct preload_png_reader preload_png_reader;

/// Makes a reader over `size` bytes at `data`, which must stay valid until the reader is
/// destroyed. Returns NULL only when memory runs out.
preload_png_reader *preload_png_reader_create(const uint8_t *data, size_t size);

void preload_png_reader_destroy(preload_png_reader *reader);

/// Checks the signature and reads every chunk up to the image data: `info` says the size of the
/// output (`decoded_bytes` saturates at UINT64_MAX), for the caller's limits to check before
/// anything the size of a row exists. `keep_16_bit` keeps 16-bit samples (RGBA16); otherwise RGBA8.
preload_png_status preload_png_read_header(preload_png_reader *reader, int keep_16_bit,
                                           preload_png_info *info);

/// Sets up the output transforms of the header `preload_png_read_header` read (with the same
/// `info`) and libpng's row buffers; fills in `info->passes`. Call once the size is accepted.
preload_png_status preload_png_start(preload_png_reader *reader, preload_png_info *info);

/// Reads `row_count` rows into `image` (the full output image, `info.row_bytes` per row),
/// starting at row `first_row` of the current pass. For Adam7 each pass covers every row again.
preload_png_status preload_png_read_rows(preload_png_reader *reader, uint8_t *image,
                                         uint32_t first_row, uint32_t row_count);

/// Reads the chunks after the image data through IEND, verifying the stream's end. A file that
/// ends exactly at a chunk boundary after complete image data (every row, the zlib stream's end
/// and the last IDAT's CRC checked while reading rows) is accepted without IEND, as browsers
/// and Pillow accept it: `preload_png_missing_iend` then says so. A chunk cut short still fails.
preload_png_status preload_png_read_end(preload_png_reader *reader);

/// Whether `preload_png_read_end` accepted a file that has no IEND chunk.
int preload_png_missing_iend(const preload_png_reader *reader);

/// How many warnings libpng gave (structure it tolerated: a bad CRC on an ancillary chunk, an
/// invalid or misplaced ancillary chunk, compressed data after the image's). The first
/// `PRELOAD_PNG_MAX_WARNINGS` are kept.
#define PRELOAD_PNG_MAX_WARNINGS 4
int preload_png_warning_count(const preload_png_reader *reader);

/// Warning `index` (0-based, below the kept count) as libpng worded it, or "".
const char *preload_png_warning(const preload_png_reader *reader, int index);

/// The reason for the last failure, or "" when there was none.
const char *preload_png_message(const preload_png_reader *reader);

/// Encodes `height` rows of `width` RGBA8 pixels (`stride` bytes apart) as a PNG with zlib
/// `level` (0-9). On success `*out` holds `*out_size` bytes the caller frees with `free`.
/// On failure returns non-zero and writes the reason into `message` (`message_size` bytes).
int preload_png_encode_rgba8(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                             int level, uint8_t **out, size_t *out_size, char *message,
                             size_t message_size);

/// Frees the bytes `preload_png_encode_rgba8` returned.
void preload_png_free_encoded(uint8_t *encoded);

#ifdef __cplusplus
}
#endif

#endif
