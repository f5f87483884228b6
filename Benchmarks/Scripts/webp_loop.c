// Baseline for the WebP plugin: read every WebP listed on stdin into memory and decode it to
// RGBA8 with libwebp on T threads, keeping every image until the end (as a preloader must; the
// shared loop: bare_loop.h).
//
// build: cc -O2 -o webp_loop Benchmarks/Scripts/webp_loop.c $(pkg-config --cflags --libs libwebp) -lpthread
// usage: find DIR -name '*.webp' | sort | ./webp_loop [THREADS] [oneshot|incremental] [CHUNK_BYTES]
//   oneshot (the default): WebPGetFeatures, then WebPDecodeRGBAInto into a malloc'd buffer.
//   incremental: WebPINewDecoder on the same external buffer, fed with WebPIUpdate a chunk of
//   the file at a time, as the PreloadWebP plugin does to stop between chunks: one chunk per 256
//   rows, at most 16 (or chunks of CHUNK_BYTES when given).
#include <webp/decode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int incremental; static size_t chunk_bytes;

#define LOOP_NAME (incremental ? "incremental" : "oneshot")
static void *loop_thread_begin(void) { return NULL; }
static void loop_thread_end(void *state) { (void)state; }

static void loop_options(int argc, char **argv) {
    incremental = argc > 0 && !strcmp(argv[0], "incremental");
    if (argc > 1) chunk_bytes = (size_t)atol(argv[1]);
    if (argc > 1 && chunk_bytes == 0) { fprintf(stderr, "usage: webp_loop [THREADS] [oneshot|incremental] [CHUNK_BYTES]\n"); exit(64); }
}

static unsigned char *loop_decode(void *state, const unsigned char *data, size_t n, size_t *out) {
    (void)state;
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(data, n, &features) != VP8_STATUS_OK || features.has_animation) return NULL;
    int stride = features.width * 4; *out = (size_t)stride * features.height;
    unsigned char *pixels = malloc(*out);
    if (!incremental) {
        if (!WebPDecodeRGBAInto(data, n, pixels, *out, stride)) { free(pixels); return NULL; }
        return pixels;
    }
    WebPDecBuffer buffer; WebPInitDecBuffer(&buffer);
    buffer.colorspace = MODE_RGBA; buffer.is_external_memory = 1;
    buffer.u.RGBA.rgba = pixels; buffer.u.RGBA.stride = stride; buffer.u.RGBA.size = *out;
    int chunks = features.height / 256; chunks = chunks < 1 ? 1 : chunks > 16 ? 16 : chunks;
    size_t chunk = chunk_bytes ? chunk_bytes : (n + chunks - 1) / chunks;
    WebPIDecoder *decoder = WebPINewDecoder(&buffer);
    VP8StatusCode status = VP8_STATUS_SUSPENDED;
    for (size_t fed = 0; fed < n && status == VP8_STATUS_SUSPENDED;) {
        fed = fed + chunk < n ? fed + chunk : n;
        status = WebPIUpdate(decoder, data, fed);
    }
    WebPIDelete(decoder);
    if (status != VP8_STATUS_OK) { free(pixels); return NULL; }
    return pixels;
}

#include "bare_loop.h"
