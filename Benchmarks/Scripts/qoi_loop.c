// Baseline: read every QOI file listed on stdin into memory and decode it to RGBA8 with the
// reference decoder's one call (qoi_decode, qoi.h), on T threads, keeping every image (as a
// preloader must) until all are done (the shared loop: bare_loop.h).
// build: cc -O2 -o /tmp/qoi_loop Benchmarks/Scripts/qoi_loop.c -lpthread   (qoi.h: Debian's libqoi-dev)
// usage: find corpus -name '*.qoi' | /tmp/qoi_loop THREADS
#define QOI_IMPLEMENTATION
#include <qoi.h>
#include <stddef.h>

#define LOOP_NAME "qoi_decode"
static void *loop_thread_begin(void) { return NULL; }
static void loop_thread_end(void *state) { (void)state; }
static void loop_options(int argc, char **argv) { (void)argc; (void)argv; }

static unsigned char *loop_decode(void *state, const unsigned char *data, size_t size, size_t *decoded) {
    (void)state;
    qoi_desc desc;
    unsigned char *pixels = qoi_decode(data, (int)size, &desc, 4);
    if (pixels) *decoded = (size_t)desc.width * desc.height * 4;
    return pixels;
}

#include "bare_loop.h"
