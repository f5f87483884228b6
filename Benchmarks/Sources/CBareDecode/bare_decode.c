#include "bare_decode.h"
#include "bench_support.h"

#include <fcntl.h>
#include <png.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    const uint8_t *data;
    size_t size, offset;
} memory_source;

static void read_memory(png_structp png, png_bytep out, png_size_t length) {
    memory_source *source = png_get_io_ptr(png);
    if (length > source->size - source->offset) png_error(png, "truncated");
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

uint8_t *bare_slurp(const char *path, size_t *size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat info;
    uint8_t *bytes = NULL;
    if (fstat(fd, &info) == 0 && (bytes = malloc(info.st_size ? info.st_size : 1)) != NULL) {
        size_t done = 0;
        while (done < (size_t)info.st_size) {
            ssize_t got = read(fd, bytes + done, info.st_size - done);
            if (got <= 0) break;
            done += got;
        }
        *size = done;
    }
    close(fd);
    return bytes;
}

/// Decodes one PNG to RGBA8; returns the pixels (malloc'd) or NULL.
static uint8_t *decode(const uint8_t *data, size_t size, size_t *out_size) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    memory_source source = {data, size, 0};
    if (!info || setjmp(png_jmpbuf(png))) {
        free(pixels);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return NULL;
    }
    png_set_read_fn(png, &source, read_memory);
    png_read_info(png, info);
    int depth = png_get_bit_depth(png, info), type = png_get_color_type(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_strip_16(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = png_get_rowbytes(png, info), height = png_get_image_height(png, info);
    pixels = malloc(stride * height);
    rows = malloc(height * sizeof *rows);
    for (size_t y = 0; y < height; y++) rows[y] = pixels + y * stride;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    *out_size = stride * height;
    return pixels;
}

typedef struct {
    const char *const *paths;
    size_t count;
    uint8_t **kept;  // one slot per file when keeping images, else NULL
    atomic_size_t next;
    atomic_uint_fast64_t failures, decoded, checksum;
} shared_work;

static void *worker(void *argument) {
    shared_work *work = argument;
    size_t index;
    while ((index = atomic_fetch_add(&work->next, 1)) < work->count) {
        size_t size = 0, decoded = 0;
        uint8_t *file = bare_slurp(work->paths[index], &size);
        uint8_t *pixels = file ? decode(file, size, &decoded) : NULL;
        free(file);
        if (!pixels) {
            atomic_fetch_add(&work->failures, 1);
            continue;
        }
        atomic_fetch_add(&work->checksum, bench_checksum(pixels, decoded));
        atomic_fetch_add(&work->decoded, decoded);
        if (work->kept) {
            work->kept[index] = pixels;
        } else {
            free(pixels);
        }
    }
    return NULL;
}

bare_decode_stats bare_decode_all(const char *const *paths, size_t count, int threads, int keep) {
    shared_work work = {.paths = paths, .count = count, .kept = keep ? bench_keep_slots(count) : NULL};
    bench_run_threads(threads, worker, &work);
    bare_decode_stats stats = {count, work.failures, work.decoded, work.checksum};
    return stats;
}
