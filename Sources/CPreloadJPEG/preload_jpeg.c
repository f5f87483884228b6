#include "preload_jpeg.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

/// Source rows decoded per jpeg_read_scanlines call.
#define ROWS_PER_CALL 16

/// libjpeg's error manager with the frame to jump back to.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    preload_jpeg_reader *reader;
} shim_error_manager;

struct preload_jpeg_reader {
    struct jpeg_decompress_struct cinfo;
    shim_error_manager error;
    struct jpeg_progress_mgr progress;
    const uint8_t *data;
    size_t size;
    int stage;     // 0: created, 1: header read, 2: started, 3: finished, -1: failed
    int in_scans;  // past the first scan's header: extraneous bytes now mean damaged data
    preload_jpeg_status failure;
    // The poll while a multi-scan file is read in full.
    preload_jpeg_poll poll;
    void *poll_context;
    int polling;
    // The output.
    int orientation;
    int cmyk;
    uint32_t out_width;
    uint32_t out_height;
    uint8_t *scratch;  // ROWS_PER_CALL source rows, for orientations that move pixels within a row
    const uint8_t *exif;
    size_t exif_length;
    int warning_count;
    int warning_kinds[PRELOAD_JPEG_MAX_WARNINGS];
    char warnings[PRELOAD_JPEG_MAX_WARNINGS][JMSG_LENGTH_MAX];
    char message[JMSG_LENGTH_MAX + 64];
};

static void record_message(preload_jpeg_reader *reader, const char *text) {
    strncpy(reader->message, text, sizeof reader->message - 1);
    reader->message[sizeof reader->message - 1] = '\0';
}

/// Ends the current shim call with `status`: back to its setjmp.
static void fail(preload_jpeg_reader *reader, preload_jpeg_status status) {
    reader->failure = status;
    longjmp(reader->error.jump, 1);
}

static preload_jpeg_status error_status(int code) {
    switch (code) {
        case JERR_OUT_OF_MEMORY: return PRELOAD_JPEG_OUT_OF_MEMORY;
        case JERR_NO_BACKING_STORE:  // more than max_memory_to_use
        case JERR_IMAGE_TOO_BIG:
        case JERR_WIDTH_OVERFLOW: return PRELOAD_JPEG_TOO_LARGE;
        case JERR_BAD_PRECISION:  // 12-bit and 16-bit data
        case JERR_SOF_UNSUPPORTED:  // lossless, hierarchical
        case JERR_CONVERSION_NOTIMPL:
        case JERR_NOT_COMPILED:
        case JERR_EMPTY_IMAGE:  // height given by a DNL marker
            return PRELOAD_JPEG_UNSUPPORTED;
        case JERR_INPUT_EMPTY:
        case JERR_INPUT_EOF: return PRELOAD_JPEG_TRUNCATED;
        case JERR_NO_SOI: return PRELOAD_JPEG_NOT_JPEG;
        default: return PRELOAD_JPEG_CORRUPT;
    }
}

static void on_error_exit(j_common_ptr cinfo) {
    shim_error_manager *error = (shim_error_manager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    record_message(error->reader, text);
    fail(error->reader, error_status(cinfo->err->msg_code));
}

/// Whether libjpeg's warning `code` means the data is damaged or missing (libjpeg would go on
/// with grey or made-up pixels), as opposed to an irregularity that leaves the pixels alone.
static int is_damage(const preload_jpeg_reader *reader, int code) {
    switch (code) {
        case JWRN_EXTRANEOUS_DATA:
            // Junk between header segments is skipped and harmless. Inside the scans it means a
            // scan decoded from fewer bytes than it holds: its data is damaged.
            return reader->in_scans;
        case JWRN_ADOBE_XFORM:  // libjpeg assumes YCbCr or YCCK, as every decoder does
        case JWRN_JFIF_MAJOR:   // a JFIF revision from the future; the data is read as usual
        case JWRN_BOGUS_ICC:    // only when reading ICC profiles, which the shim does not
            return 0;
        default:
            // JWRN_JPEG_EOF, JWRN_HIT_MARKER, JWRN_HUFF_BAD_CODE, JWRN_ARITH_BAD_CODE,
            // JWRN_MUST_RESYNC, JWRN_NOT_SEQUENTIAL, JWRN_BOGUS_PROGRESSION, and any warning a
            // later libjpeg adds: damaged until shown otherwise.
            return 1;
    }
}

static int warning_kind(int code) {
    switch (code) {
        case JWRN_EXTRANEOUS_DATA: return PRELOAD_JPEG_WARNING_EXTRANEOUS_BYTES;
        case JWRN_ADOBE_XFORM: return PRELOAD_JPEG_WARNING_ADOBE_TRANSFORM;
        default: return PRELOAD_JPEG_WARNING_OTHER;
    }
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    shim_error_manager *error = (shim_error_manager *)cinfo->err;
    preload_jpeg_reader *reader = error->reader;
    int code = cinfo->err->msg_code;
    cinfo->err->num_warnings++;
    if (code == JWRN_JPEG_EOF) {
        record_message(reader, "the file ends before the JPEG data does");
        fail(reader, PRELOAD_JPEG_TRUNCATED);
    }
    if (code == JWRN_TOO_MUCH_DATA) {
        record_message(reader, "more scanlines read than the image has");
        fail(reader, PRELOAD_JPEG_MISUSE);
    }
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (is_damage(reader, code)) {
        record_message(reader, text);
        fail(reader, PRELOAD_JPEG_CORRUPT);
    }
    if (reader->warning_count < PRELOAD_JPEG_MAX_WARNINGS) {
        reader->warning_kinds[reader->warning_count] = warning_kind(code);
        memcpy(reader->warnings[reader->warning_count], text, sizeof text);
    }
    reader->warning_count++;
}

/// libjpeg calls this between rows of blocks: it counts scans for every file, and while a
/// multi-scan file is read in full, tells the caller how far it is and lets it stop.
static void on_progress(j_common_ptr common) {
    j_decompress_ptr cinfo = (j_decompress_ptr)common;
    preload_jpeg_reader *reader = ((shim_error_manager *)cinfo->err)->reader;
    if (cinfo->input_scan_number > PRELOAD_JPEG_MAX_SCANS) {
        snprintf(reader->message, sizeof reader->message, "more than %d scans",
                 PRELOAD_JPEG_MAX_SCANS);
        fail(reader, PRELOAD_JPEG_TOO_LARGE);
    }
    if (!reader->polling || reader->poll == NULL) return;
    size_t unread = cinfo->src->bytes_in_buffer;
    double fraction = reader->size == 0 ? 1.0 : (double)(reader->size - unread) / (double)reader->size;
    if ((*reader->poll)(reader->poll_context, fraction)) {
        record_message(reader, "cancelled");
        fail(reader, PRELOAD_JPEG_CANCELLED);
    }
}

preload_jpeg_reader *preload_jpeg_reader_create(const uint8_t *data, size_t size) {
    preload_jpeg_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->data = data;
    reader->size = size;
    reader->cinfo.err = jpeg_std_error(&reader->error.pub);
    reader->error.pub.error_exit = on_error_exit;
    reader->error.pub.emit_message = on_emit_message;
    reader->error.reader = reader;
    if (setjmp(reader->error.jump)) {  // jpeg_create_decompress ran out of memory
        jpeg_destroy_decompress(&reader->cinfo);
        free(reader);
        return NULL;
    }
    jpeg_create_decompress(&reader->cinfo);
    reader->progress.progress_monitor = on_progress;
    reader->cinfo.progress = &reader->progress;
    return reader;
}

void preload_jpeg_reader_destroy(preload_jpeg_reader *reader) {
    if (reader == NULL) return;
    jpeg_destroy_decompress(&reader->cinfo);
    free(reader->scratch);
    free(reader);
}

static preload_jpeg_color_model color_model(J_COLOR_SPACE space) {
    switch (space) {
        case JCS_GRAYSCALE: return PRELOAD_JPEG_GRAY;
        case JCS_YCbCr: return PRELOAD_JPEG_YCBCR;
        case JCS_RGB: return PRELOAD_JPEG_RGB;
        case JCS_CMYK: return PRELOAD_JPEG_CMYK;
        case JCS_YCCK: return PRELOAD_JPEG_YCCK;
        default: return PRELOAD_JPEG_OTHER;
    }
}

static void find_exif(preload_jpeg_reader *reader) {
    for (jpeg_saved_marker_ptr marker = reader->cinfo.marker_list; marker != NULL;
         marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0) {
            reader->exif = marker->data;
            reader->exif_length = marker->data_length;
            return;
        }
    }
}

preload_jpeg_status preload_jpeg_read_header(preload_jpeg_reader *reader, uint64_t max_memory,
                                             preload_jpeg_info *out) {
    if (reader == NULL || out == NULL || reader->stage != 0) return PRELOAD_JPEG_MISUSE;
    size_t checked = reader->size < 3 ? reader->size : 3;
    static const uint8_t soi[3] = {0xFF, 0xD8, 0xFF};
    if (checked == 0 || memcmp(reader->data, soi, checked) != 0) {
        record_message(reader, "the data does not start with a JPEG SOI marker");
        return PRELOAD_JPEG_NOT_JPEG;
    }
    if (checked < 3) {
        record_message(reader, "the file ends inside the SOI marker");
        return PRELOAD_JPEG_TRUNCATED;
    }
    reader->stage = -1;
    if (setjmp(reader->error.jump)) return reader->failure;
    j_decompress_ptr cinfo = &reader->cinfo;
    cinfo->mem->max_memory_to_use = max_memory > (uint64_t)LONG_MAX ? LONG_MAX : (long)max_memory;
    jpeg_mem_src(cinfo, reader->data, (unsigned long)reader->size);
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(cinfo, TRUE);
    reader->in_scans = 1;
    find_exif(reader);

    preload_jpeg_info info;
    memset(&info, 0, sizeof info);
    info.width = cinfo->image_width;
    info.height = cinfo->image_height;
    info.components = (uint8_t)cinfo->num_components;
    info.color_model = (uint8_t)color_model(cinfo->jpeg_color_space);
    info.progressive = cinfo->progressive_mode ? 1 : 0;
    info.arithmetic = cinfo->arith_code ? 1 : 0;
    info.multiple_scans = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
    info.has_adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    int supported = (cinfo->num_components == 1 && cinfo->jpeg_color_space == JCS_GRAYSCALE) ||
                    (cinfo->num_components == 3 &&
                     (cinfo->jpeg_color_space == JCS_YCbCr || cinfo->jpeg_color_space == JCS_RGB)) ||
                    (cinfo->num_components == 4 &&
                     (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK));
    *out = info;
    if (!supported) {
        snprintf(reader->message, sizeof reader->message,
                 "%d colour components (only greyscale, YCbCr, RGB, CMYK and YCCK are supported)",
                 cinfo->num_components);
        return PRELOAD_JPEG_UNSUPPORTED;
    }
    reader->cmyk = cinfo->num_components == 4;
    reader->stage = 1;
    return PRELOAD_JPEG_OK;
}

const uint8_t *preload_jpeg_exif(const preload_jpeg_reader *reader, size_t *length) {
    if (reader == NULL || reader->exif == NULL) {
        if (length != NULL) *length = 0;
        return NULL;
    }
    if (length != NULL) *length = reader->exif_length;
    return reader->exif;
}

preload_jpeg_status preload_jpeg_start(preload_jpeg_reader *reader, int orientation,
                                       preload_jpeg_poll poll, void *poll_context,
                                       uint32_t *out_width, uint32_t *out_height) {
    if (reader == NULL || reader->stage != 1 || orientation < 1 || orientation > 8) {
        return PRELOAD_JPEG_MISUSE;
    }
    reader->stage = -1;
    if (setjmp(reader->error.jump)) {
        reader->polling = 0;
        return reader->failure;
    }
    j_decompress_ptr cinfo = &reader->cinfo;
    cinfo->out_color_space = reader->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->do_fancy_upsampling = TRUE;
    reader->orientation = orientation;
    reader->poll = poll;
    reader->poll_context = poll_context;
    reader->polling = 1;
    jpeg_start_decompress(cinfo);
    reader->polling = 0;
    if (cinfo->output_components != 4 || cinfo->output_width != cinfo->image_width ||
        cinfo->output_height != cinfo->image_height) {
        record_message(reader, "libjpeg produced an unexpected output layout");
        return PRELOAD_JPEG_MISUSE;
    }
    int swaps = orientation >= 5;
    reader->out_width = swaps ? cinfo->output_height : cinfo->output_width;
    reader->out_height = swaps ? cinfo->output_width : cinfo->output_height;
    if (orientation != 1 && orientation != 4) {
        reader->scratch = malloc((size_t)cinfo->output_width * 4u * ROWS_PER_CALL);
        if (reader->scratch == NULL) {
            record_message(reader, "no memory for a row buffer");
            return PRELOAD_JPEG_OUT_OF_MEMORY;
        }
    }
    *out_width = reader->out_width;
    *out_height = reader->out_height;
    reader->stage = 2;
    return PRELOAD_JPEG_OK;
}

/// Pillow's MULDIV255: a * b / 255, rounded the way Pillow's `convert` rounds it.
static inline uint8_t multiply_divide_255(unsigned a, unsigned b) {
    unsigned product = a * b + 128;
    return (uint8_t)(((product >> 8) + product) >> 8);
}

/// Adobe-polarity CMYK (255 = no ink) to RGBA in place, as Pillow's `convert("RGB")` does it.
static void cmyk_to_rgba(uint8_t *pixel, size_t count) {
    for (size_t index = 0; index < count; index++, pixel += 4) {
        unsigned k = pixel[3];
        pixel[0] = (uint8_t)(k - multiply_divide_255(255u - pixel[0], k));
        pixel[1] = (uint8_t)(k - multiply_divide_255(255u - pixel[1], k));
        pixel[2] = (uint8_t)(k - multiply_divide_255(255u - pixel[2], k));
        pixel[3] = 255;
    }
}

/// Puts `count` decoded source rows from `source` (starting at source row `first`) where the
/// orientation moves them in `image`.
static void place_rows(const preload_jpeg_reader *reader, uint8_t *image, const uint8_t *source,
                       uint32_t first, uint32_t count) {
    uint32_t width = reader->cinfo.output_width, height = reader->cinfo.output_height;
    size_t source_row_bytes = (size_t)width * 4u;
    size_t out_row_bytes = (size_t)reader->out_width * 4u;
    int orientation = reader->orientation;
    if (orientation == 2 || orientation == 3) {  // mirrored rows (3: also upside down)
        for (uint32_t row = 0; row < count; row++) {
            uint32_t y = first + row;
            uint8_t *out = image + (size_t)(orientation == 2 ? y : height - 1 - y) * out_row_bytes;
            const uint8_t *in = source + (size_t)row * source_row_bytes;
            for (uint32_t x = 0; x < width; x++) memcpy(out + (size_t)(width - 1 - x) * 4u, in + (size_t)x * 4u, 4);
        }
        return;
    }
    // 5 to 8: source row y becomes an output column, source column x an output row.
    for (uint32_t x = 0; x < width; x++) {
        uint32_t out_y = (orientation == 5 || orientation == 6) ? x : width - 1 - x;
        uint8_t *out_row = image + (size_t)out_y * out_row_bytes;
        for (uint32_t row = 0; row < count; row++) {
            uint32_t y = first + row;
            uint32_t out_x = (orientation == 5 || orientation == 8) ? y : height - 1 - y;
            memcpy(out_row + (size_t)out_x * 4u, source + (size_t)row * source_row_bytes + (size_t)x * 4u, 4);
        }
    }
}

preload_jpeg_status preload_jpeg_read_rows(preload_jpeg_reader *reader, uint8_t *image,
                                           uint32_t row_count, uint32_t *rows_done) {
    if (reader == NULL || image == NULL || rows_done == NULL || reader->stage != 2) {
        return PRELOAD_JPEG_MISUSE;
    }
    *rows_done = 0;
    reader->stage = -1;
    if (setjmp(reader->error.jump)) return reader->failure;
    j_decompress_ptr cinfo = &reader->cinfo;
    uint32_t width = cinfo->output_width, height = cinfo->output_height;
    size_t row_bytes = (size_t)width * 4u;
    uint32_t done = 0;
    while (done < row_count && cinfo->output_scanline < height) {
        uint32_t first = cinfo->output_scanline;
        uint32_t wanted = row_count - done;
        if (wanted > height - first) wanted = height - first;
        if (wanted > ROWS_PER_CALL) wanted = ROWS_PER_CALL;
        JSAMPROW rows[ROWS_PER_CALL];
        for (uint32_t index = 0; index < wanted; index++) {
            uint32_t y = first + index;
            if (reader->scratch != NULL) {
                rows[index] = reader->scratch + (size_t)index * row_bytes;
            } else {  // 1 or 4: whole rows in place, 4 from the bottom up
                rows[index] = image + (size_t)(reader->orientation == 4 ? height - 1 - y : y) * row_bytes;
            }
        }
        JDIMENSION read = jpeg_read_scanlines(cinfo, rows, wanted);
        if (read == 0) {
            record_message(reader, "libjpeg decoded no rows");
            return PRELOAD_JPEG_CORRUPT;
        }
        if (reader->cmyk) {
            for (JDIMENSION index = 0; index < read; index++) cmyk_to_rgba(rows[index], width);
        }
        if (reader->scratch != NULL) place_rows(reader, image, reader->scratch, first, read);
        done += read;
    }
    *rows_done = done;
    reader->stage = 2;
    return PRELOAD_JPEG_OK;
}

preload_jpeg_status preload_jpeg_finish(preload_jpeg_reader *reader) {
    if (reader == NULL || reader->stage != 2) return PRELOAD_JPEG_MISUSE;
    if (reader->cinfo.output_scanline < reader->cinfo.output_height) {
        record_message(reader, "finished before every row was read");
        return PRELOAD_JPEG_MISUSE;
    }
    reader->stage = -1;
    if (setjmp(reader->error.jump)) return reader->failure;
    jpeg_finish_decompress(&reader->cinfo);
    reader->stage = 3;
    return PRELOAD_JPEG_OK;
}

int preload_jpeg_warning_count(const preload_jpeg_reader *reader) {
    return reader == NULL ? 0 : reader->warning_count;
}

int preload_jpeg_warning_kind_at(const preload_jpeg_reader *reader, int index) {
    if (reader == NULL || index < 0 || index >= reader->warning_count ||
        index >= PRELOAD_JPEG_MAX_WARNINGS) {
        return 0;
    }
    return reader->warning_kinds[index];
}

const char *preload_jpeg_warning(const preload_jpeg_reader *reader, int index) {
    if (reader == NULL || index < 0 || index >= reader->warning_count ||
        index >= PRELOAD_JPEG_MAX_WARNINGS) {
        return "";
    }
    return reader->warnings[index];
}

const char *preload_jpeg_message(const preload_jpeg_reader *reader) {
    return reader == NULL ? "" : reader->message;
}
