#include "preload_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct preload_png_reader {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    uint64_t row_bytes;
    int info_read;    /* preload_png_read_header succeeded */
    int header_read;  /* preload_png_start succeeded: rows can be read */
    int ran_out_of_data;
    int reading_end;
    int missing_iend;
    /// Where the next chunk's header starts: libpng reads the file in order, so an 8-byte read
    /// starting there is that header.
    uint64_t next_chunk;
    int warning_count;
    char warnings[PRELOAD_PNG_MAX_WARNINGS][128];
    char message[256];
};

static void record_message(preload_png_reader *reader, const char *text) {
    strncpy(reader->message, text ? text : "unknown libpng error", sizeof reader->message - 1);
    reader->message[sizeof reader->message - 1] = '\0';
}

static void on_error(png_structp png, png_const_charp text) {
    preload_png_reader *reader = (preload_png_reader *)png_get_error_ptr(png);
    if (!reader->ran_out_of_data) record_message(reader, text);
    png_longjmp(png, 1);
}

// libpng's warnings, and the benign errors it downgrades to warnings, concern structure (a bad
// CRC on an ancillary chunk, which is then ignored; an out-of-place or invalid ancillary chunk)
// and never change the pixels. They are kept for the caller to report.
static void on_warning(png_structp png, png_const_charp text) {
    preload_png_reader *reader = (preload_png_reader *)png_get_error_ptr(png);
    if (reader->warning_count < PRELOAD_PNG_MAX_WARNINGS) {
        char *slot = reader->warnings[reader->warning_count];
        strncpy(slot, text ? text : "libpng warning", sizeof reader->warnings[0] - 1);
        slot[sizeof reader->warnings[0] - 1] = '\0';
    }
    reader->warning_count++;
}

static void on_read(png_structp png, png_bytep out, png_size_t length) {
    preload_png_reader *reader = (preload_png_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        // After every row: the image data ended (zlib stream and last IDAT CRC checked), and
        // the file ends exactly where the next chunk's header would start: no IEND.
        if (reader->reading_end && reader->offset == reader->size && length == 8) {
            reader->missing_iend = 1;
            png_error(png, "no IEND");
        }
        reader->ran_out_of_data = 1;
        record_message(reader, "the file ends before the PNG stream does");
        png_error(png, "truncated");
    }
    if (length == 8 && reader->offset == reader->next_chunk) {
        const uint8_t *header = reader->data + reader->offset;
        uint32_t declared = (uint32_t)header[0] << 24 | (uint32_t)header[1] << 16 | (uint32_t)header[2] << 8 | header[3];
        reader->next_chunk = reader->offset + 12 + (uint64_t)declared;
        // libpng allocates and zeroes a chunk's declared length before reading it (tEXt, iCCP,
        // sPLT...), and Debian's build sets no limit: a 247-byte file declaring an 870 MB tEXt
        // cost 0.8 s and 870 MB (found by fuzz-png). Such a chunk runs past the end of the file,
        // which libpng would report once it read that far: report it now. Chunks of libpng's
        // usual 8,000,000-byte allowance or less are left to libpng, so ordinary damaged files
        // fail exactly as before.
        if (declared > 8000000 && reader->next_chunk > reader->size) {
            reader->ran_out_of_data = 1;
            record_message(reader, "the file ends before the PNG stream does");
            png_error(png, "truncated");
        }
    }
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

static preload_png_status failure_status(const preload_png_reader *reader) {
    if (reader->ran_out_of_data) return PRELOAD_PNG_TRUNCATED;
    if (strstr(reader->message, "memory") != NULL) return PRELOAD_PNG_OUT_OF_MEMORY;
    return PRELOAD_PNG_CORRUPT;
}

preload_png_reader *preload_png_reader_create(const uint8_t *data, size_t size) {
    preload_png_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->data = data;
    reader->size = size;
    reader->next_chunk = 8;  // after the signature
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
    if (reader->png == NULL) {
        free(reader);
        return NULL;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) {
        png_destroy_read_struct(&reader->png, NULL, NULL);
        free(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, on_read);
    // Our own limits decide; libpng's built-in 1,000,000 pixel cap would preempt them.
    png_set_user_limits(reader->png, 0x7fffffffU, 0x7fffffffU);
    // Unknown chunks are skipped. (Known ancillary chunks such as gAMA are parsed but never
    // applied; an explicit ignore list would be rebuilt for every image and cost more than it saves.)
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    return reader;
}

void preload_png_reader_destroy(preload_png_reader *reader) {
    if (reader == NULL) return;
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader);
}

static void set_up_transforms(png_structp png, png_infop info, int color_type, int bit_depth,
                              int keep_16_bit) {
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) {
        if (keep_16_bit) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            png_set_swap(png);
#endif
        } else {
            png_set_strip_16(png);
        }
    }
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_trns) {
        png_set_filler(png, 0xffff, PNG_FILLER_AFTER);
    }
}

preload_png_status preload_png_read_header(preload_png_reader *reader, int keep_16_bit,
                                           preload_png_info *out) {
    if (reader == NULL || out == NULL || reader->info_read) {
        return PRELOAD_PNG_MISUSE;
    }
    size_t checked = reader->size < 8 ? reader->size : 8;
    if (checked == 0 || png_sig_cmp(reader->data, 0, checked) != 0) {
        record_message(reader, "the data does not start with the PNG signature");
        return PRELOAD_PNG_NOT_PNG;
    }
    if (checked < 8) {
        record_message(reader, "the file ends inside the PNG signature");
        return PRELOAD_PNG_TRUNCATED;
    }
    if (setjmp(png_jmpbuf(reader->png))) return failure_status(reader);

    png_read_info(reader->png, reader->info);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &bit_depth, &color_type, &interlace,
                 NULL, NULL);
    preload_png_info info;
    memset(&info, 0, sizeof info);
    info.width = width;
    info.height = height;
    info.bit_depth = (uint8_t)bit_depth;
    info.color_type = (uint8_t)color_type;
    info.interlaced = interlace == PNG_INTERLACE_ADAM7;
    info.bytes_per_sample = (keep_16_bit && bit_depth == 16) ? 2 : 1;
    info.row_bytes = (uint64_t)width * 4u * info.bytes_per_sample;  /* < 2^34: width < 2^31 */
    /* Up to 2^65 for 16-bit output of a 2^31 x 2^31 header: saturate rather than wrap, or a
       wrapped, small product could pass the limit and the rows would overrun the buffer. */
    if (__builtin_mul_overflow(info.row_bytes, (uint64_t)height, &info.decoded_bytes)) {
        info.decoded_bytes = UINT64_MAX;
    }
    info.passes = info.interlaced ? 7 : 1;
    reader->info_read = 1;
    *out = info;
    return PRELOAD_PNG_OK;
}

preload_png_status preload_png_start(preload_png_reader *reader, preload_png_info *info) {
    if (reader == NULL || info == NULL || !reader->info_read || reader->header_read) {
        return PRELOAD_PNG_MISUSE;
    }
    if (setjmp(png_jmpbuf(reader->png))) return failure_status(reader);
    set_up_transforms(reader->png, reader->info, info->color_type, info->bit_depth,
                      info->bytes_per_sample == 2);
    info->passes = (uint32_t)png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    if ((uint64_t)png_get_rowbytes(reader->png, reader->info) != info->row_bytes) {
        record_message(reader, "libpng produced an unexpected row layout");
        return PRELOAD_PNG_MISUSE;
    }
    reader->row_bytes = info->row_bytes;
    reader->header_read = 1;
    return PRELOAD_PNG_OK;
}

preload_png_status preload_png_read_rows(preload_png_reader *reader, uint8_t *image,
                                         uint32_t first_row, uint32_t row_count) {
    if (reader == NULL || image == NULL || !reader->header_read) return PRELOAD_PNG_MISUSE;
    if (setjmp(png_jmpbuf(reader->png))) return failure_status(reader);
    uint8_t *row = image + (size_t)first_row * (size_t)reader->row_bytes;
    for (uint32_t index = 0; index < row_count; index++) {
        png_read_row(reader->png, row, NULL);
        row += reader->row_bytes;
    }
    return PRELOAD_PNG_OK;
}

preload_png_status preload_png_read_end(preload_png_reader *reader) {
    if (reader == NULL || !reader->header_read) return PRELOAD_PNG_MISUSE;
    if (setjmp(png_jmpbuf(reader->png))) {
        return reader->missing_iend ? PRELOAD_PNG_OK : failure_status(reader);
    }
    reader->reading_end = 1;
    png_read_end(reader->png, NULL);
    return PRELOAD_PNG_OK;
}

int preload_png_missing_iend(const preload_png_reader *reader) {
    return reader != NULL && reader->missing_iend;
}

int preload_png_warning_count(const preload_png_reader *reader) {
    return reader == NULL ? 0 : reader->warning_count;
}

const char *preload_png_warning(const preload_png_reader *reader, int index) {
    if (reader == NULL || index < 0 || index >= reader->warning_count ||
        index >= PRELOAD_PNG_MAX_WARNINGS) {
        return "";
    }
    return reader->warnings[index];
}

const char *preload_png_message(const preload_png_reader *reader) {
    return reader == NULL ? "" : reader->message;
}
