// Baseline for the JPEG plugin: read every JPEG listed on stdin into memory and decode it to
// RGBA8 with TurboJPEG's one-call API (tjDecompress2 to TJPF_RGBA: libjpeg-turbo's accurate
// integer IDCT and fancy upsampling, as the plugin decodes) on T threads, keeping every image
// until the end (as a preloader must; the shared loop: bare_loop.h).
//
// build: cc -O2 -o jpeg_loop Benchmarks/Scripts/jpeg_loop.c $(pkg-config --cflags --libs libturbojpeg) -lpthread
// usage: find DIR -name '*.jpg' | sort | ./jpeg_loop [THREADS]
#include <turbojpeg.h>
#include <stdlib.h>

#define LOOP_NAME "tjDecompress2"
static void *loop_thread_begin(void) { return tjInitDecompress(); }
static void loop_thread_end(void *state) { tjDestroy(state); }
static void loop_options(int argc, char **argv) { (void)argc; (void)argv; }

static unsigned char *loop_decode(void *handle, const unsigned char *data, size_t size, size_t *decoded) {
    int width, height, subsampling, colorspace;
    if (tjDecompressHeader3(handle, data, (unsigned long)size, &width, &height, &subsampling, &colorspace) != 0) return NULL;
    *decoded = (size_t)width * height * 4;
    unsigned char *pixels = malloc(*decoded);
    if (tjDecompress2(handle, data, (unsigned long)size, pixels, width, 0, height, TJPF_RGBA, 0) != 0) {
        free(pixels);
        return NULL;
    }
    return pixels;
}

#include "bare_loop.h"
