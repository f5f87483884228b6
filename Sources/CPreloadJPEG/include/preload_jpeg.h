// A small shim over libjpeg-turbo's libjpeg API (not the one-call TurboJPEG API: the libjpeg API
// reads scanlines, so the caller can stop between rows and report progress).
//
// libjpeg reports errors through `error_exit`, whose default calls exit(), and reports damaged
// data only as warnings while it pads what is missing with grey. Swift cannot be unwound by
// longjmp, so every libjpeg call happens inside one of the functions below, each of which owns
// its own setjmp frame: the shim's `error_exit` and `emit_message` longjmp back there and the
// function returns a status code plus a message.
//
// Warnings are sorted (see preload_jpeg.c, `is_damage`): those that mean damaged or missing
// data (premature end of file, premature end of a data segment, a bad Huffman or arithmetic
// code, a missing restart marker, bytes left over inside the scans, an inconsistent progression)
// end the decode with an error at once, so a damaged file never yields a partly grey image.
// Those that leave the pixels alone (junk between header segments, an unknown JFIF revision or
// Adobe transform code, a bad ICC marker) are kept for the caller to report.
//
// Output: RGBA8 rows, alpha 255, written straight into the caller's image with libjpeg-turbo's
// JCS_EXT_RGBA (colour and greyscale alike). CMYK and YCCK files are decoded as CMYK and
// converted as Pillow converts them (Adobe's inverted polarity): see `preload_jpeg_start`.
// The IDCT is libjpeg's default (JDCT_ISLOW) with fancy upsampling.
#ifndef PRELOAD_JPEG_H
#define PRELOAD_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a shim call reports.
typedef enum {
    PRELOAD_JPEG_OK = 0,
    /// The data does not start with a JPEG SOI marker (FF D8 FF).
    PRELOAD_JPEG_NOT_JPEG = 1,
    /// The data ended before the JPEG stream did (including a missing EOI marker).
    PRELOAD_JPEG_TRUNCATED = 2,
    /// libjpeg rejected the stream, or warned that its data is damaged; `preload_jpeg_message`
    /// says why.
    PRELOAD_JPEG_CORRUPT = 3,
    /// A valid JPEG this decoder does not handle: 12-bit or lossless data, an unusual number of
    /// components, a hierarchical process.
    PRELOAD_JPEG_UNSUPPORTED = 4,
    /// More than libjpeg's memory limit, more scans than `PRELOAD_JPEG_MAX_SCANS`, or
    /// dimensions past libjpeg's own maximum.
    PRELOAD_JPEG_TOO_LARGE = 5,
    /// libjpeg could not allocate memory.
    PRELOAD_JPEG_OUT_OF_MEMORY = 6,
    /// The poll callback asked to stop.
    PRELOAD_JPEG_CANCELLED = 7,
    /// The calls were made out of order (a bug in the caller).
    PRELOAD_JPEG_MISUSE = 8,
} preload_jpeg_status;

/// A progressive (or other multi-scan) file with more scans than this is refused: each scan is
/// another pass over the whole image, so a tiny file of many scans would take very long
/// (TurboJPEG's own limit, TJPARAM_SCANLIMIT, is 500 too).
#define PRELOAD_JPEG_MAX_SCANS 500

/// The colour model of the data as stored.
typedef enum {
    PRELOAD_JPEG_GRAY = 1,
    PRELOAD_JPEG_YCBCR = 2,
    PRELOAD_JPEG_RGB = 3,
    PRELOAD_JPEG_CMYK = 4,
    PRELOAD_JPEG_YCCK = 5,
    PRELOAD_JPEG_OTHER = 6,
} preload_jpeg_color_model;

/// The image as its header describes it.
typedef struct {
    uint32_t width;            // as stored, before any EXIF orientation
    uint32_t height;
    uint8_t components;        // 1, 3 or 4 (others are refused as unsupported)
    uint8_t color_model;       // a preload_jpeg_color_model
    uint8_t progressive;       // 1 for a progressive (SOF2, SOF6, SOF10, SOF14) file
    uint8_t arithmetic;        // 1 for arithmetic coding
    uint8_t multiple_scans;    // 1 when the pixels need every scan before the first row exists
    uint8_t has_adobe_marker;  // 1 when an Adobe APP14 segment was found
} preload_jpeg_info;

typedef struct preload_jpeg_reader preload_jpeg_reader;

/// Makes a reader over `size` bytes at `data`, which must stay valid until the reader is
/// destroyed. Returns NULL only when memory runs out.
preload_jpeg_reader *preload_jpeg_reader_create(const uint8_t *data, size_t size);

void preload_jpeg_reader_destroy(preload_jpeg_reader *reader);

/// Checks the SOI marker and reads every segment up to the first scan's header (SOS), keeping
/// the first EXIF (APP1 "Exif") segment. Allocates nothing in proportion to the image.
/// `max_memory` caps what libjpeg itself may allocate later (a progressive file's coefficients).
preload_jpeg_status preload_jpeg_read_header(preload_jpeg_reader *reader, uint64_t max_memory,
                                             preload_jpeg_info *info);

/// The first APP1 segment that starts with "Exif\0\0", without its marker and length (so
/// starting at "Exif"), and its length in `*length`; NULL and 0 when there is none. Valid
/// until the reader is destroyed; only after `preload_jpeg_read_header` succeeded.
const uint8_t *preload_jpeg_exif(const preload_jpeg_reader *reader, size_t *length);

/// Called while a multi-scan (progressive) file is read in full, which happens before its first
/// row exists: once per row of blocks of each scan (cheap work only), with the fraction of the
/// input read so far. Returning non-zero stops the decode with `PRELOAD_JPEG_CANCELLED`.
typedef int (*preload_jpeg_poll)(void *context, double fraction_of_input);

/// Starts decompression: for a multi-scan file this reads and decodes every scan, calling
/// `poll` between rows of blocks. `orientation` is the EXIF orientation (1 to 8) to apply to
/// the output as rows are read: 1 keeps the stored layout; 5 to 8 swap width and height. The
/// output is `out_width` x `out_height` RGBA8 pixels, `out_width * 4` bytes per row.
///
/// CMYK and YCCK data: libjpeg gives CMYK samples as stored, which Adobe's convention (and
/// Pillow's, which assumes it for every CMYK JPEG) stores inverted (255 = no ink). Each pixel
/// becomes, with k = the stored K sample and MULDIV255(a, b) = a * b / 255 rounded as Pillow
/// rounds it: R = k - MULDIV255(255 - C, k), likewise G from M and B from Y, A = 255: Pillow's
/// `Image.convert("RGB")` of the same file, exactly.
preload_jpeg_status preload_jpeg_start(preload_jpeg_reader *reader, int orientation,
                                       preload_jpeg_poll poll, void *poll_context,
                                       uint32_t *out_width, uint32_t *out_height);

/// Decodes up to `row_count` more source rows into `image` (the whole output image, laid out as
/// `preload_jpeg_start` said), each placed where the orientation puts it. `*rows_done` gets how
/// many were decoded; the decode is complete when the total reaches the stored height.
preload_jpeg_status preload_jpeg_read_rows(preload_jpeg_reader *reader, uint8_t *image,
                                           uint32_t row_count, uint32_t *rows_done);

/// Reads the rest of the stream through its EOI marker, verifying it.
preload_jpeg_status preload_jpeg_finish(preload_jpeg_reader *reader);

/// The kinds of warning libjpeg gives about data that leave the pixels as intended.
typedef enum {
    /// Bytes that belong to no segment, between two header segments (skipped).
    PRELOAD_JPEG_WARNING_EXTRANEOUS_BYTES = 1,
    /// An unknown Adobe colour transform code (libjpeg then assumes YCbCr or YCCK, as every
    /// decoder does).
    PRELOAD_JPEG_WARNING_ADOBE_TRANSFORM = 2,
    /// Anything else libjpeg tolerated: an unknown JFIF revision, a bad ICC marker (ignored).
    PRELOAD_JPEG_WARNING_OTHER = 3,
} preload_jpeg_warning_kind;

/// How many tolerated warnings libjpeg gave. The first `PRELOAD_JPEG_MAX_WARNINGS` are kept.
#define PRELOAD_JPEG_MAX_WARNINGS 4
int preload_jpeg_warning_count(const preload_jpeg_reader *reader);

/// The kind of warning `index` (0-based, below the kept count), or 0.
int preload_jpeg_warning_kind_at(const preload_jpeg_reader *reader, int index);

/// Warning `index` (0-based, below the kept count) as libjpeg worded it, or "".
const char *preload_jpeg_warning(const preload_jpeg_reader *reader, int index);

/// The reason for the last failure, or "" when there was none.
const char *preload_jpeg_message(const preload_jpeg_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
