// The part of libwebp's decoder ABI that PreloadWebP uses, declared here so that the package
// builds without libwebp's development headers: the plugin opens libwebp.so.7 at run time
// (Preload's SystemLibrary) and calls these functions through pointers.
//
// These are the types of libwebp's decoder ABI version 2 (WEBP_DECODER_ABI_VERSION 0x0209, the
// ABI of libwebp 1.x, the shared library's soname libwebp.so.7). libwebp checks the version it is
// given in every "...Internal" call and refuses a major version it does not share, so a future
// incompatible libwebp fails those calls instead of misreading these structures. The sizes are
// checked in preload_webp.c against those of libwebp 1.2.4's own headers.
#ifndef PRELOAD_WEBP_H
#define PRELOAD_WEBP_H

#include <stddef.h>
#include <stdint.h>

/// The decoder ABI these declarations follow, given to libwebp's version-checked entry points.
#define PRELOAD_WEBP_DECODER_ABI_VERSION 0x0209

typedef enum VP8StatusCode {
    VP8_STATUS_OK = 0,
    VP8_STATUS_OUT_OF_MEMORY,
    VP8_STATUS_INVALID_PARAM,
    VP8_STATUS_BITSTREAM_ERROR,
    VP8_STATUS_UNSUPPORTED_FEATURE,
    VP8_STATUS_SUSPENDED,
    VP8_STATUS_USER_ABORT,
    VP8_STATUS_NOT_ENOUGH_DATA
} VP8StatusCode;

/// Output colour spaces (only RGBA is used: straight alpha, 8 bits a channel).
typedef enum WEBP_CSP_MODE { MODE_RGBA = 1 } WEBP_CSP_MODE;

/// What WebPGetFeatures reads from a bitstream's headers.
typedef struct WebPBitstreamFeatures {
    int width;
    int height;
    int has_alpha;
    int has_animation;
    int format;  // 0 undefined or mixed, 1 lossy, 2 lossless
    uint32_t pad[5];
} WebPBitstreamFeatures;

/// Interleaved output rows.
typedef struct WebPRGBABuffer {
    uint8_t *rgba;
    int stride;
    size_t size;
} WebPRGBABuffer;

/// Planar output (not used; declared for the union's size).
typedef struct WebPYUVABuffer {
    uint8_t *y, *u, *v, *a;
    int y_stride;
    int u_stride, v_stride;
    int a_stride;
    size_t y_size;
    size_t u_size, v_size;
    size_t a_size;
} WebPYUVABuffer;

/// Where a decoder writes: with is_external_memory set, into the caller's rows.
typedef struct WebPDecBuffer {
    WEBP_CSP_MODE colorspace;
    int width, height;
    int is_external_memory;
    union {
        WebPRGBABuffer RGBA;
        WebPYUVABuffer YUVA;
    } u;
    uint32_t pad[4];
    uint8_t *private_memory;
} WebPDecBuffer;

/// An incremental decoder (opaque).
typedef struct WebPIDecoder WebPIDecoder;

/// int WebPGetDecoderVersion(void)
typedef int (*PreloadWebPGetDecoderVersion)(void);
/// VP8StatusCode WebPGetFeaturesInternal(const uint8_t *, size_t, WebPBitstreamFeatures *, int abi)
typedef VP8StatusCode (*PreloadWebPGetFeaturesInternal)(const uint8_t *, size_t, WebPBitstreamFeatures *, int);
/// int WebPInitDecBufferInternal(WebPDecBuffer *, int abi)
typedef int (*PreloadWebPInitDecBufferInternal)(WebPDecBuffer *, int);
/// WebPIDecoder *WebPINewDecoder(WebPDecBuffer *)
typedef WebPIDecoder *(*PreloadWebPINewDecoder)(WebPDecBuffer *);
/// VP8StatusCode WebPIUpdate(WebPIDecoder *, const uint8_t *, size_t)
typedef VP8StatusCode (*PreloadWebPIUpdate)(WebPIDecoder *, const uint8_t *, size_t);
/// void WebPIDelete(WebPIDecoder *)
typedef void (*PreloadWebPIDelete)(WebPIDecoder *);
/// uint8_t *WebPIDecGetRGB(const WebPIDecoder *, int *last_y, int *width, int *height, int *stride)
typedef uint8_t *(*PreloadWebPIDecGetRGB)(const WebPIDecoder *, int *, int *, int *, int *);

#endif
