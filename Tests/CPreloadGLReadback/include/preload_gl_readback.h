#ifndef PRELOAD_GL_READBACK_H
#define PRELOAD_GL_READBACK_H

/* A headless OpenGL or OpenGL ES context (EGL, no window system: Mesa's surfaceless platform,
   llvmpipe on a machine without a GPU) that uploads a texture, block-compressed or RGBA8, and
   reads every mip level back as RGBA8, so tests can check what a driver decodes from blocks
   they wrote. Nothing is linked: the caller opens libEGL.so.1 and passes its eglGetProcAddress,
   through which every EGL and GL function is resolved (EGL_KHR_client_get_all_proc_addresses,
   which libglvnd and Mesa have); the EGL and GL numbers used are declared in the .c file.

   A context is not thread-safe: one thread at a time calls the functions below with it. Each
   makes the context current on the calling thread and releases it before returning, so call
   them from a thread that has no context of its own current (a game's GL thread would lose its
   context). */

#include <stddef.h>
#include <stdint.h>

/* The API a context speaks. */
enum {
    /* OpenGL 4.5 core profile: glGetTexImage reads levels back. */
    PRELOAD_GL_API_DESKTOP_CORE = 0,
    /* OpenGL 4.5 compatibility profile. */
    PRELOAD_GL_API_DESKTOP_COMPATIBILITY = 1,
    /* OpenGL ES 3.2: no glGetTexImage, levels are drawn into an RGBA8 framebuffer and read. */
    PRELOAD_GL_API_ES = 2,
};

/* How a level is read back. */
enum {
    /* glGetTexImage(GL_RGBA, GL_UNSIGNED_BYTE) on desktop GL, drawing on GL ES. */
    PRELOAD_GL_READ_AUTOMATIC = 0,
    /* glGetTexImage (desktop GL only). */
    PRELOAD_GL_READ_GET_TEX_IMAGE = 1,
    /* A fullscreen triangle whose fragment shader copies texelFetch(level) into an RGBA8
       framebuffer, then glReadPixels (either API). */
    PRELOAD_GL_READ_DRAW = 2,
};

/* What a call returns; the context's message (preload_gl_message) says more. */
enum {
    PRELOAD_GL_OK = 0,
    /* eglGetProcAddress gave no address for an EGL function. */
    PRELOAD_GL_NO_EGL = 1,
    /* No EGL display could be opened and initialized (no driver: Mesa's EGL vendor or its DRI
       drivers missing). */
    PRELOAD_GL_NO_DISPLAY = 2,
    /* The display has no context of the API and version asked for, or none can be current
       without a surface. */
    PRELOAD_GL_NO_CONTEXT = 3,
    /* The context lacks a GL function the harness calls. */
    PRELOAD_GL_NO_FUNCTION = 4,
    /* The driver does not list the format (GL_COMPRESSED_TEXTURE_FORMATS nor an extension or
       core version that brings it): its "wrong data" cannot be told from "no support". */
    PRELOAD_GL_UNSUPPORTED_FORMAT = 5,
    /* Bad arguments: a format the harness does not know, a size, a level count, a byte count. */
    PRELOAD_GL_BAD_ARGUMENT = 6,
    /* A GL call raised an error (the code is in *gl_error, the step in the message). */
    PRELOAD_GL_ERROR = 7,
    /* The read-back framebuffer or shader could not be set up. */
    PRELOAD_GL_DRAW_FAILED = 8,
};

/* How the driver knows a format (preload_gl_format_support's bits). */
enum {
    /* In GL_COMPRESSED_TEXTURE_FORMATS, or an uncompressed format every context has. */
    PRELOAD_GL_FORMAT_LISTED = 1,
    /* Brought by an extension the context lists, or by its core version. */
    PRELOAD_GL_FORMAT_BY_EXTENSION = 2,
};

typedef struct preload_gl preload_gl;

/* eglGetProcAddress's type. */
typedef void *(*preload_gl_get_proc_address)(const char *name);

/* A new context of `api` (PRELOAD_GL_API_...) in *context. On failure *context holds a context
   that only carries the message (read it, then close it); the status says what failed. */
int preload_gl_open(preload_gl_get_proc_address get_proc_address, int api, preload_gl **context);

/* Frees the context (never the EGL display: others in the process may use it). */
void preload_gl_close(preload_gl *context);

/* What the last call said: "" after success, else the cause. */
const char *preload_gl_message(const preload_gl *context);

/* GL_VENDOR, GL_RENDERER and GL_VERSION, one line ("Mesa/X.org llvmpipe (LLVM 15.0.6, 256 bits) 4.5
   (Core Profile) Mesa 22.3.6"). */
const char *preload_gl_description(const preload_gl *context);

/* PRELOAD_GL_FORMAT_... bits for `internal_format`: 0 when the driver lacks it. */
int preload_gl_format_support(preload_gl *context, uint32_t internal_format);

/* The bytes of one level of `internal_format` at width x height: whole blocks for compressed
   formats, 4 a texel for GL_RGBA8 and GL_SRGB8_ALPHA8; 0 for a format the harness does not know. */
size_t preload_gl_level_byte_count(uint32_t internal_format, int width, int height);

/* Uploads `level_count` levels of `internal_format` (level 0 at width x height, each next one
   half the size rounded down, at least 1), held one after another in `data` (`byte_count`
   bytes, the levels' sizes summed exactly), with glCompressedTexImage2D (glTexImage2D for
   GL_RGBA8 and GL_SRGB8_ALPHA8), and reads each level back into `rgba`: its width x height x 4
   bytes, rows top (first uploaded) row first, level after level.

   The values are those stored: sRGB textures come back sRGB-encoded, unconverted. Formats with
   fewer channels come back as GL's RGBA expansion: red (RGTC1) as (r, 0, 0, 255), red-green
   (RGTC2) as (r, g, 0, 255); an RGB format's alpha as 255. *gl_error holds the first glGetError
   code met (0 for none). */
int preload_gl_read_back(
    preload_gl *context, uint32_t internal_format, int width, int height, int level_count, const uint8_t *data,
    size_t byte_count, int method, uint8_t *rgba, uint32_t *gl_error);

#endif
