// PNG encoding for atlas pages and contact sheets: libpng's write API, inside one setjmp frame.
#include "preload_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int out_of_memory;
    char *message;
    size_t message_size;
} write_buffer;

static void on_write(png_structp png, png_bytep bytes, png_size_t length) {
    write_buffer *buffer = (write_buffer *)png_get_io_ptr(png);
    if (buffer->size + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 65536;
        while (capacity < buffer->size + length) capacity *= 2;
        uint8_t *grown = realloc(buffer->data, capacity);
        if (grown == NULL) {
            buffer->out_of_memory = 1;
            png_error(png, "out of memory while encoding");
        }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, length);
    buffer->size += length;
}

static void on_flush(png_structp png) { (void)png; }

static void on_write_error(png_structp png, png_const_charp text) {
    write_buffer *buffer = (write_buffer *)png_get_error_ptr(png);
    if (buffer->message_size > 0) snprintf(buffer->message, buffer->message_size, "%s", text);
    png_longjmp(png, 1);
}

static void on_write_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

int preload_png_encode_rgba8(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                             int level, uint8_t **out, size_t *out_size, char *message,
                             size_t message_size) {
    write_buffer buffer = {NULL, 0, 0, 0, message, message_size};
    if (message_size > 0) message[0] = '\0';
    png_structp png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, &buffer, on_write_error, on_write_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        if (message_size > 0) snprintf(message, message_size, "out of memory");
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(buffer.data);
        return 1;
    }
    png_set_write_fn(png, &buffer, on_write, on_flush);
    png_set_compression_level(png, level < 0 ? 0 : level > 9 ? 9 : level);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t row = 0; row < height; row++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)row * stride));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *out = buffer.data;
    *out_size = buffer.size;
    return 0;
}

void preload_png_free_encoded(uint8_t *encoded) { free(encoded); }
