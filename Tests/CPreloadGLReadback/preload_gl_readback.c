#include "preload_gl_readback.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* EGL's types and numbers (egl.h and eglext.h of EGL 1.5, Khronos's registry). */
typedef void *EGLDisplay, *EGLConfig, *EGLContext, *EGLSurface;
typedef int32_t EGLint;
typedef unsigned EGLBoolean, EGLenum;
enum {
    EGL_SUCCESS = 0x3000, EGL_ALPHA_SIZE = 0x3021, EGL_BLUE_SIZE = 0x3022, EGL_GREEN_SIZE = 0x3023, EGL_RED_SIZE = 0x3024,
    EGL_SURFACE_TYPE = 0x3033, EGL_NONE = 0x3038, EGL_RENDERABLE_TYPE = 0x3040, EGL_EXTENSIONS = 0x3055, EGL_HEIGHT = 0x3056,
    EGL_WIDTH = 0x3057, EGL_PBUFFER_BIT = 0x0001, EGL_OPENGL_ES3_BIT = 0x0040, EGL_OPENGL_BIT = 0x0008,
    EGL_OPENGL_ES_API = 0x30A0, EGL_OPENGL_API = 0x30A2, EGL_CONTEXT_MAJOR_VERSION = 0x3098,
    EGL_CONTEXT_MINOR_VERSION = 0x30FB, EGL_CONTEXT_OPENGL_PROFILE_MASK = 0x30FD, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT = 1,
    EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT = 2, EGL_PLATFORM_SURFACELESS_MESA = 0x31DD,
};
#define EGL_NO_DISPLAY ((EGLDisplay)0)
#define EGL_NO_CONTEXT ((EGLContext)0)
#define EGL_NO_SURFACE ((EGLSurface)0)
#define EGL_DEFAULT_DISPLAY ((void *)0)

/* OpenGL's numbers (glcorearb.h, gl2ext.h), as far as the harness uses them. */
typedef unsigned GLenum, GLuint, GLbitfield;
typedef int GLint, GLsizei;
typedef unsigned char GLubyte, GLboolean;
typedef char GLchar;
enum {
    GL_NO_ERROR = 0, GL_INVALID_ENUM = 0x0500, GL_INVALID_VALUE = 0x0501, GL_INVALID_OPERATION = 0x0502,
    GL_OUT_OF_MEMORY = 0x0505, GL_INVALID_FRAMEBUFFER_OPERATION = 0x0506, GL_DITHER = 0x0BD0, GL_UNPACK_ALIGNMENT = 0x0CF5,
    GL_PACK_ALIGNMENT = 0x0D05, GL_TEXTURE_2D = 0x0DE1, GL_UNSIGNED_BYTE = 0x1401, GL_RGBA = 0x1908, GL_VENDOR = 0x1F00,
    GL_RENDERER = 0x1F01, GL_VERSION = 0x1F02, GL_EXTENSIONS = 0x1F03, GL_NEAREST = 0x2600,
    GL_NEAREST_MIPMAP_NEAREST = 0x2700, GL_TEXTURE_MAG_FILTER = 0x2800, GL_TEXTURE_MIN_FILTER = 0x2801,
    GL_TEXTURE_WRAP_S = 0x2802, GL_TEXTURE_WRAP_T = 0x2803, GL_CLAMP_TO_EDGE = 0x812F, GL_TEXTURE_BASE_LEVEL = 0x813C,
    GL_TEXTURE_MAX_LEVEL = 0x813D, GL_TEXTURE0 = 0x84C0, GL_NUM_COMPRESSED_TEXTURE_FORMATS = 0x86A2,
    GL_COMPRESSED_TEXTURE_FORMATS = 0x86A3, GL_FRAGMENT_SHADER = 0x8B30, GL_VERTEX_SHADER = 0x8B31,
    GL_COMPILE_STATUS = 0x8B81, GL_LINK_STATUS = 0x8B82, GL_MAJOR_VERSION = 0x821B, GL_MINOR_VERSION = 0x821C,
    GL_NUM_EXTENSIONS = 0x821D, GL_FRAMEBUFFER_SRGB = 0x8DB9, GL_FRAMEBUFFER = 0x8D40, GL_FRAMEBUFFER_COMPLETE = 0x8CD5,
    GL_COLOR_ATTACHMENT0 = 0x8CE0, GL_TRIANGLES = 0x0004,
    GL_RGBA8 = 0x8058, GL_SRGB8_ALPHA8 = 0x8C43,
};

/* The formats the harness knows: block size, bytes a block, the family that brings it. */
enum family { UNCOMPRESSED, S3TC, S3TC_SRGB, RGTC, BPTC, ETC2, ASTC };
typedef struct format_info {
    uint32_t format;
    uint8_t block_width, block_height, block_bytes, family, srgb;
} format_info;

static const format_info formats[] = {
    {0x8058, 1, 1, 4, UNCOMPRESSED, 0}, /* GL_RGBA8 */
    {0x8C43, 1, 1, 4, UNCOMPRESSED, 1}, /* GL_SRGB8_ALPHA8 */
    {0x83F0, 4, 4, 8, S3TC, 0},         /* GL_COMPRESSED_RGB_S3TC_DXT1_EXT */
    {0x83F1, 4, 4, 8, S3TC, 0},         /* GL_COMPRESSED_RGBA_S3TC_DXT1_EXT (BC1) */
    {0x83F2, 4, 4, 16, S3TC, 0},        /* GL_COMPRESSED_RGBA_S3TC_DXT3_EXT (BC2) */
    {0x83F3, 4, 4, 16, S3TC, 0},        /* GL_COMPRESSED_RGBA_S3TC_DXT5_EXT (BC3) */
    {0x8C4C, 4, 4, 8, S3TC_SRGB, 1},    /* GL_COMPRESSED_SRGB_S3TC_DXT1_EXT */
    {0x8C4D, 4, 4, 8, S3TC_SRGB, 1},    /* GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT */
    {0x8C4E, 4, 4, 16, S3TC_SRGB, 1},   /* GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT */
    {0x8C4F, 4, 4, 16, S3TC_SRGB, 1},   /* GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT */
    {0x8DBB, 4, 4, 8, RGTC, 0},         /* GL_COMPRESSED_RED_RGTC1 (BC4) */
    {0x8DBD, 4, 4, 16, RGTC, 0},        /* GL_COMPRESSED_RG_RGTC2 (BC5) */
    {0x8E8C, 4, 4, 16, BPTC, 0},        /* GL_COMPRESSED_RGBA_BPTC_UNORM (BC7) */
    {0x8E8D, 4, 4, 16, BPTC, 1},        /* GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM */
    {0x9270, 4, 4, 8, ETC2, 0},         /* GL_COMPRESSED_R11_EAC */
    {0x9272, 4, 4, 16, ETC2, 0},        /* GL_COMPRESSED_RG11_EAC */
    {0x9274, 4, 4, 8, ETC2, 0},         /* GL_COMPRESSED_RGB8_ETC2 */
    {0x9275, 4, 4, 8, ETC2, 1},         /* GL_COMPRESSED_SRGB8_ETC2 */
    {0x9276, 4, 4, 8, ETC2, 0},         /* GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2 */
    {0x9277, 4, 4, 8, ETC2, 1},         /* GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2 */
    {0x9278, 4, 4, 16, ETC2, 0},        /* GL_COMPRESSED_RGBA8_ETC2_EAC */
    {0x9279, 4, 4, 16, ETC2, 1},        /* GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC */
};

/* ASTC LDR: GL_COMPRESSED_RGBA_ASTC_4x4_KHR (0x93B0) to _12x12 (0x93BD), in this order of block
   sizes; the sRGB ones (GL_COMPRESSED_SRGB8_ALPHA8_ASTC_*) are the same order from 0x93D0. */
static const uint8_t astc_blocks[14][2] = {
    {4, 4}, {5, 4}, {5, 5}, {6, 5}, {6, 6}, {8, 5}, {8, 6}, {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12},
};

static int find_format(uint32_t format, format_info *info) {
    for (size_t index = 0; index < sizeof formats / sizeof formats[0]; index++) {
        if (formats[index].format == format) {
            *info = formats[index];
            return 1;
        }
    }
    for (uint32_t base = 0x93B0; base <= 0x93D0; base += 0x20) {
        if (format >= base && format < base + 14) {
            const uint8_t *block = astc_blocks[format - base];
            *info = (format_info){format, block[0], block[1], 16, ASTC, base == 0x93D0};
            return 1;
        }
    }
    return 0;
}

size_t preload_gl_level_byte_count(uint32_t internal_format, int width, int height) {
    format_info info;
    if (!find_format(internal_format, &info) || width < 1 || height < 1) return 0;
    size_t across = ((size_t)width + info.block_width - 1) / info.block_width;
    size_t down = ((size_t)height + info.block_height - 1) / info.block_height;
    return across * down * info.block_bytes;
}

/* The EGL and GL functions the harness calls. */
typedef struct functions {
    EGLint (*eglGetError)(void);
    const char *(*eglQueryString)(EGLDisplay, EGLint);
    EGLDisplay (*eglGetPlatformDisplayEXT)(EGLenum, void *, const EGLint *);
    EGLDisplay (*eglGetDisplay)(void *);
    EGLBoolean (*eglInitialize)(EGLDisplay, EGLint *, EGLint *);
    EGLBoolean (*eglBindAPI)(EGLenum);
    EGLBoolean (*eglChooseConfig)(EGLDisplay, const EGLint *, EGLConfig *, EGLint, EGLint *);
    EGLContext (*eglCreateContext)(EGLDisplay, EGLConfig, EGLContext, const EGLint *);
    EGLBoolean (*eglDestroyContext)(EGLDisplay, EGLContext);
    EGLSurface (*eglCreatePbufferSurface)(EGLDisplay, EGLConfig, const EGLint *);
    EGLBoolean (*eglDestroySurface)(EGLDisplay, EGLSurface);
    EGLBoolean (*eglMakeCurrent)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);

    GLenum (*glGetError)(void);
    const GLubyte *(*glGetString)(GLenum);
    const GLubyte *(*glGetStringi)(GLenum, GLuint);
    void (*glGetIntegerv)(GLenum, GLint *);
    void (*glEnable)(GLenum);
    void (*glDisable)(GLenum);
    void (*glPixelStorei)(GLenum, GLint);
    void (*glGenTextures)(GLsizei, GLuint *);
    void (*glDeleteTextures)(GLsizei, const GLuint *);
    void (*glBindTexture)(GLenum, GLuint);
    void (*glActiveTexture)(GLenum);
    void (*glTexParameteri)(GLenum, GLenum, GLint);
    void (*glTexImage2D)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void *);
    void (*glCompressedTexImage2D)(GLenum, GLint, GLenum, GLsizei, GLsizei, GLint, GLsizei, const void *);
    void (*glGetTexImage)(GLenum, GLint, GLenum, GLenum, void *);
    void (*glGenFramebuffers)(GLsizei, GLuint *);
    void (*glDeleteFramebuffers)(GLsizei, const GLuint *);
    void (*glBindFramebuffer)(GLenum, GLuint);
    void (*glFramebufferTexture2D)(GLenum, GLenum, GLenum, GLuint, GLint);
    GLenum (*glCheckFramebufferStatus)(GLenum);
    void (*glViewport)(GLint, GLint, GLsizei, GLsizei);
    void (*glReadPixels)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
    GLuint (*glCreateShader)(GLenum);
    void (*glShaderSource)(GLuint, GLsizei, const GLchar *const *, const GLint *);
    void (*glCompileShader)(GLuint);
    void (*glGetShaderiv)(GLuint, GLenum, GLint *);
    void (*glGetShaderInfoLog)(GLuint, GLsizei, GLsizei *, GLchar *);
    void (*glDeleteShader)(GLuint);
    GLuint (*glCreateProgram)(void);
    void (*glAttachShader)(GLuint, GLuint);
    void (*glLinkProgram)(GLuint);
    void (*glGetProgramiv)(GLuint, GLenum, GLint *);
    void (*glGetProgramInfoLog)(GLuint, GLsizei, GLsizei *, GLchar *);
    void (*glDeleteProgram)(GLuint);
    void (*glUseProgram)(GLuint);
    GLint (*glGetUniformLocation)(GLuint, const GLchar *);
    void (*glUniform1i)(GLint, GLint);
    void (*glGenVertexArrays)(GLsizei, GLuint *);
    void (*glDeleteVertexArrays)(GLsizei, const GLuint *);
    void (*glBindVertexArray)(GLuint);
    void (*glDrawArrays)(GLenum, GLint, GLsizei);
} functions;

struct preload_gl {
    functions f;
    int api;
    EGLDisplay display;
    EGLContext context;
    EGLSurface surface; /* EGL_NO_SURFACE where surfaceless contexts are allowed */
    GLint major, minor;
    char *extensions;      /* " GL_A GL_B ... " */
    GLint *listed;         /* GL_COMPRESSED_TEXTURE_FORMATS */
    GLint listed_count;
    GLuint program;        /* the read-back shader, made on first use */
    GLint level_location;
    GLuint vertex_array;
    char description[512];
    char message[1024];
};

static int fail(preload_gl *gl, int status, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(gl->message, sizeof gl->message, format, arguments);
    va_end(arguments);
    return status;
}

static const char *gl_error_name(GLenum error) {
    switch (error) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    default: return "a GL error";
    }
}

/* PRELOAD_GL_ERROR naming `step` when GL has raised an error since the last check. */
static int check(preload_gl *gl, uint32_t *gl_error, const char *step, int level) {
    GLenum error = gl->f.glGetError();
    if (error == GL_NO_ERROR) return PRELOAD_GL_OK;
    if (gl_error && *gl_error == 0) *gl_error = error;
    return fail(gl, PRELOAD_GL_ERROR, "%s (level %d): %s (0x%04X)", step, level, gl_error_name(error), error);
}

static int has_extension(const preload_gl *gl, const char *name) {
    char word[128];
    snprintf(word, sizeof word, " %s ", name);
    return gl->extensions && strstr(gl->extensions, word) != NULL;
}

static int make_current(preload_gl *gl) {
    gl->f.eglBindAPI(gl->api == PRELOAD_GL_API_ES ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
    return gl->f.eglMakeCurrent(gl->display, gl->surface, gl->surface, gl->context) ? PRELOAD_GL_OK : PRELOAD_GL_NO_CONTEXT;
}

static void release_current(preload_gl *gl) {
    gl->f.eglBindAPI(gl->api == PRELOAD_GL_API_ES ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
    gl->f.eglMakeCurrent(gl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

#define RESOLVE(name)                                                                           \
    do {                                                                                        \
        *(void **)&gl->f.name = get_proc_address(#name);                                        \
        if (!gl->f.name) return fail(gl, missing_status, "eglGetProcAddress has no " #name);  \
    } while (0)

static int resolve_egl(preload_gl *gl, preload_gl_get_proc_address get_proc_address) {
    int missing_status = PRELOAD_GL_NO_EGL;
    RESOLVE(eglGetError);
    RESOLVE(eglQueryString);
    RESOLVE(eglGetDisplay);
    RESOLVE(eglInitialize);
    RESOLVE(eglBindAPI);
    RESOLVE(eglChooseConfig);
    RESOLVE(eglCreateContext);
    RESOLVE(eglDestroyContext);
    RESOLVE(eglCreatePbufferSurface);
    RESOLVE(eglDestroySurface);
    RESOLVE(eglMakeCurrent);
    *(void **)&gl->f.eglGetPlatformDisplayEXT = get_proc_address("eglGetPlatformDisplayEXT");
    return PRELOAD_GL_OK;
}

static int resolve_gl(preload_gl *gl, preload_gl_get_proc_address get_proc_address) {
    int missing_status = PRELOAD_GL_NO_FUNCTION;
    RESOLVE(glGetError);
    RESOLVE(glGetString);
    RESOLVE(glGetStringi);
    RESOLVE(glGetIntegerv);
    RESOLVE(glEnable);
    RESOLVE(glDisable);
    RESOLVE(glPixelStorei);
    RESOLVE(glGenTextures);
    RESOLVE(glDeleteTextures);
    RESOLVE(glBindTexture);
    RESOLVE(glActiveTexture);
    RESOLVE(glTexParameteri);
    RESOLVE(glTexImage2D);
    RESOLVE(glCompressedTexImage2D);
    RESOLVE(glGenFramebuffers);
    RESOLVE(glDeleteFramebuffers);
    RESOLVE(glBindFramebuffer);
    RESOLVE(glFramebufferTexture2D);
    RESOLVE(glCheckFramebufferStatus);
    RESOLVE(glViewport);
    RESOLVE(glReadPixels);
    RESOLVE(glCreateShader);
    RESOLVE(glShaderSource);
    RESOLVE(glCompileShader);
    RESOLVE(glGetShaderiv);
    RESOLVE(glGetShaderInfoLog);
    RESOLVE(glDeleteShader);
    RESOLVE(glCreateProgram);
    RESOLVE(glAttachShader);
    RESOLVE(glLinkProgram);
    RESOLVE(glGetProgramiv);
    RESOLVE(glGetProgramInfoLog);
    RESOLVE(glDeleteProgram);
    RESOLVE(glUseProgram);
    RESOLVE(glGetUniformLocation);
    RESOLVE(glUniform1i);
    RESOLVE(glGenVertexArrays);
    RESOLVE(glDeleteVertexArrays);
    RESOLVE(glBindVertexArray);
    RESOLVE(glDrawArrays);
    if (gl->api != PRELOAD_GL_API_ES) RESOLVE(glGetTexImage);
    return PRELOAD_GL_OK;
}

/* The display: Mesa's surfaceless platform when the client library has it (no X, no Wayland,
   no DRM device needed), else the default display. */
static int open_display(preload_gl *gl) {
    const char *client = gl->f.eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    const char *tried = "eglGetDisplay(EGL_DEFAULT_DISPLAY)";
    gl->display = EGL_NO_DISPLAY;
    if (client && strstr(client, "EGL_MESA_platform_surfaceless") && gl->f.eglGetPlatformDisplayEXT) {
        gl->display = gl->f.eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        tried = "eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)";
    }
    if (gl->display == EGL_NO_DISPLAY) gl->display = gl->f.eglGetDisplay(EGL_DEFAULT_DISPLAY);
    EGLint major = 0, minor = 0;
    if (gl->display == EGL_NO_DISPLAY || !gl->f.eglInitialize(gl->display, &major, &minor)) {
        return fail(
            gl, PRELOAD_GL_NO_DISPLAY,
            "no EGL display (%s, EGL error 0x%04X): is Mesa's EGL driver installed (libegl-mesa0, libgl1-mesa-dri)?", tried,
            gl->f.eglGetError());
    }
    return PRELOAD_GL_OK;
}

static int create_context(preload_gl *gl) {
    int es = gl->api == PRELOAD_GL_API_ES;
    EGLint config_attributes[] = {
        EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE,
    };
    EGLConfig config = NULL;
    EGLint count = 0;
    if (!gl->f.eglChooseConfig(gl->display, config_attributes, &config, 1, &count) || count < 1) {
        return fail(gl, PRELOAD_GL_NO_CONTEXT, "no EGL config renders %s to a pbuffer", es ? "OpenGL ES 3" : "OpenGL");
    }
    if (!gl->f.eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) {
        return fail(gl, PRELOAD_GL_NO_CONTEXT, "eglBindAPI(%s) failed", es ? "EGL_OPENGL_ES_API" : "EGL_OPENGL_API");
    }
    EGLint profile = gl->api == PRELOAD_GL_API_DESKTOP_CORE ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                                                            : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    EGLint desktop_attributes[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK, profile, EGL_NONE,
    };
    EGLint es_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
    gl->context = gl->f.eglCreateContext(gl->display, config, EGL_NO_CONTEXT, es ? es_attributes : desktop_attributes);
    if (gl->context == EGL_NO_CONTEXT) {
        return fail(
            gl, PRELOAD_GL_NO_CONTEXT, "the driver has no %s context (EGL error 0x%04X)",
            es ? "OpenGL ES 3.2" : (gl->api == PRELOAD_GL_API_DESKTOP_CORE ? "OpenGL 4.5 core" : "OpenGL 4.5 compatibility"),
            gl->f.eglGetError());
    }
    /* Surfaceless (EGL_KHR_surfaceless_context) where the display allows it: the harness draws
       into framebuffers of its own; else a 1x1 pbuffer to be current with. */
    gl->surface = EGL_NO_SURFACE;
    if (make_current(gl) == PRELOAD_GL_OK) return PRELOAD_GL_OK;
    EGLint pbuffer_attributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    gl->surface = gl->f.eglCreatePbufferSurface(gl->display, config, pbuffer_attributes);
    if (gl->surface == EGL_NO_SURFACE || make_current(gl) != PRELOAD_GL_OK) {
        return fail(gl, PRELOAD_GL_NO_CONTEXT, "the context cannot be made current (EGL error 0x%04X)", gl->f.eglGetError());
    }
    return PRELOAD_GL_OK;
}

/* The context's version, extensions and listed compressed formats (it is current). */
static int read_capabilities(preload_gl *gl) {
    gl->f.glGetIntegerv(GL_MAJOR_VERSION, &gl->major);
    gl->f.glGetIntegerv(GL_MINOR_VERSION, &gl->minor);
    GLint count = 0;
    gl->f.glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    size_t length = 2;
    for (GLint index = 0; index < count; index++) {
        const GLubyte *name = gl->f.glGetStringi(GL_EXTENSIONS, (GLuint)index);
        if (name) length += strlen((const char *)name) + 1;
    }
    gl->extensions = malloc(length);
    if (!gl->extensions) return fail(gl, PRELOAD_GL_NO_CONTEXT, "out of memory");
    strcpy(gl->extensions, " ");
    for (GLint index = 0; index < count; index++) {
        const GLubyte *name = gl->f.glGetStringi(GL_EXTENSIONS, (GLuint)index);
        if (!name) continue;
        strcat(gl->extensions, (const char *)name);
        strcat(gl->extensions, " ");
    }
    gl->f.glGetIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &gl->listed_count);
    if (gl->listed_count < 0) gl->listed_count = 0;
    gl->listed = calloc((size_t)gl->listed_count + 1, sizeof(GLint));
    if (!gl->listed) return fail(gl, PRELOAD_GL_NO_CONTEXT, "out of memory");
    if (gl->listed_count > 0) gl->f.glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, gl->listed);
    const char *vendor = (const char *)gl->f.glGetString(GL_VENDOR);
    const char *renderer = (const char *)gl->f.glGetString(GL_RENDERER);
    const char *version = (const char *)gl->f.glGetString(GL_VERSION);
    snprintf(
        gl->description, sizeof gl->description, "%s %s %s", vendor ? vendor : "?", renderer ? renderer : "?",
        version ? version : "?");
    GLenum error = gl->f.glGetError();
    if (error != GL_NO_ERROR) {
        return fail(gl, PRELOAD_GL_ERROR, "reading the context's capabilities: %s (0x%04X)", gl_error_name(error), error);
    }
    return PRELOAD_GL_OK;
}

int preload_gl_open(preload_gl_get_proc_address get_proc_address, int api, preload_gl **context) {
    preload_gl *gl = calloc(1, sizeof *gl);
    *context = gl;
    if (!gl) return PRELOAD_GL_NO_CONTEXT;
    gl->api = api;
    if (api < PRELOAD_GL_API_DESKTOP_CORE || api > PRELOAD_GL_API_ES) {
        return fail(gl, PRELOAD_GL_BAD_ARGUMENT, "no API numbered %d", api);
    }
    if (!get_proc_address) return fail(gl, PRELOAD_GL_NO_EGL, "no eglGetProcAddress");
    int status = resolve_egl(gl, get_proc_address);
    if (status == PRELOAD_GL_OK) status = open_display(gl);
    if (status == PRELOAD_GL_OK) status = create_context(gl);
    if (status != PRELOAD_GL_OK) return status;
    status = resolve_gl(gl, get_proc_address);
    if (status == PRELOAD_GL_OK) status = read_capabilities(gl);
    release_current(gl);
    return status;
}

void preload_gl_close(preload_gl *gl) {
    if (!gl) return;
    if (gl->context != EGL_NO_CONTEXT) {
        if (gl->program || gl->vertex_array) {
            if (make_current(gl) == PRELOAD_GL_OK) {
                if (gl->program) gl->f.glDeleteProgram(gl->program);
                if (gl->vertex_array) gl->f.glDeleteVertexArrays(1, &gl->vertex_array);
                release_current(gl);
            }
        }
        gl->f.eglDestroyContext(gl->display, gl->context);
    }
    if (gl->surface != EGL_NO_SURFACE) gl->f.eglDestroySurface(gl->display, gl->surface);
    free(gl->extensions);
    free(gl->listed);
    free(gl);
}

const char *preload_gl_message(const preload_gl *gl) { return gl ? gl->message : "out of memory"; }

const char *preload_gl_description(const preload_gl *gl) { return gl->description; }

static int at_least(const preload_gl *gl, int major, int minor) {
    return gl->major > major || (gl->major == major && gl->minor >= minor);
}

int preload_gl_format_support(preload_gl *gl, uint32_t internal_format) {
    format_info info;
    if (!find_format(internal_format, &info)) return 0;
    if (info.family == UNCOMPRESSED) return PRELOAD_GL_FORMAT_LISTED | PRELOAD_GL_FORMAT_BY_EXTENSION;
    int bits = 0;
    for (GLint index = 0; index < gl->listed_count; index++) {
        if ((uint32_t)gl->listed[index] == internal_format) bits |= PRELOAD_GL_FORMAT_LISTED;
    }
    int es = gl->api == PRELOAD_GL_API_ES, known = 0;
    switch (info.family) {
    case S3TC: known = has_extension(gl, "GL_EXT_texture_compression_s3tc"); break;
    case S3TC_SRGB:
        known = has_extension(gl, "GL_EXT_texture_compression_s3tc_srgb")
                || (!es && has_extension(gl, "GL_EXT_texture_compression_s3tc") && has_extension(gl, "GL_EXT_texture_sRGB"));
        break;
    case RGTC:
        known = es ? has_extension(gl, "GL_EXT_texture_compression_rgtc")
                   : at_least(gl, 3, 0) || has_extension(gl, "GL_ARB_texture_compression_rgtc");
        break;
    case BPTC:
        known = es ? has_extension(gl, "GL_EXT_texture_compression_bptc")
                   : at_least(gl, 4, 2) || has_extension(gl, "GL_ARB_texture_compression_bptc");
        break;
    case ETC2: known = es ? at_least(gl, 3, 0) : at_least(gl, 4, 3) || has_extension(gl, "GL_ARB_ES3_compatibility"); break;
    case ASTC: known = (es && at_least(gl, 3, 2)) || has_extension(gl, "GL_KHR_texture_compression_astc_ldr"); break;
    }
    if (known) bits |= PRELOAD_GL_FORMAT_BY_EXTENSION;
    return bits;
}

static const char *const vertex_shader =
    "void main() {\n"
    "    vec2 corner = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);\n"
    "    gl_Position = vec4(corner, 0.0, 1.0);\n"
    "}\n";

static const char *const fragment_shader =
    "uniform sampler2D source;\n"
    "uniform int level;\n"
    "out vec4 color;\n"
    "void main() { color = texelFetch(source, ivec2(gl_FragCoord.xy), level); }\n";

static GLuint compile(preload_gl *gl, GLenum kind, const char *body) {
    const char *header = gl->api == PRELOAD_GL_API_ES
                             ? "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n"
                             : "#version 330 core\n";
    const char *sources[] = {header, body};
    GLuint shader = gl->f.glCreateShader(kind);
    gl->f.glShaderSource(shader, 2, sources, NULL);
    gl->f.glCompileShader(shader);
    GLint compiled = 0;
    gl->f.glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
    if (!compiled) {
        char log[512] = "";
        gl->f.glGetShaderInfoLog(shader, sizeof log, NULL, log);
        fail(gl, PRELOAD_GL_DRAW_FAILED, "the read-back shader does not compile: %s", log);
        gl->f.glDeleteShader(shader);
        return 0;
    }
    return shader;
}

/* The read-back program and an empty vertex array to draw with (the context is current). */
static int prepare_drawing(preload_gl *gl) {
    if (gl->program) return PRELOAD_GL_OK;
    GLuint vertex = compile(gl, GL_VERTEX_SHADER, vertex_shader);
    if (!vertex) return PRELOAD_GL_DRAW_FAILED;
    GLuint fragment = compile(gl, GL_FRAGMENT_SHADER, fragment_shader);
    if (!fragment) {
        gl->f.glDeleteShader(vertex);
        return PRELOAD_GL_DRAW_FAILED;
    }
    GLuint program = gl->f.glCreateProgram();
    gl->f.glAttachShader(program, vertex);
    gl->f.glAttachShader(program, fragment);
    gl->f.glLinkProgram(program);
    gl->f.glDeleteShader(vertex);
    gl->f.glDeleteShader(fragment);
    GLint linked = 0;
    gl->f.glGetProgramiv(program, GL_LINK_STATUS, &linked);
    if (!linked) {
        char log[512] = "";
        gl->f.glGetProgramInfoLog(program, sizeof log, NULL, log);
        gl->f.glDeleteProgram(program);
        return fail(gl, PRELOAD_GL_DRAW_FAILED, "the read-back shader does not link: %s", log);
    }
    gl->program = program;
    gl->level_location = gl->f.glGetUniformLocation(program, "level");
    gl->f.glUseProgram(program);
    gl->f.glUniform1i(gl->f.glGetUniformLocation(program, "source"), 0);
    gl->f.glGenVertexArrays(1, &gl->vertex_array);
    return PRELOAD_GL_OK;
}

static int level_size(int size, int level) {
    int result = size >> level;
    return result > 0 ? result : 1;
}

/* Draws each level of `texture` into an RGBA8 (sRGB: SRGB8_ALPHA8) framebuffer and reads it.
   texelFetch of an sRGB texture gives linear values; the sRGB framebuffer encodes them again on
   write (always on GL ES, GL_FRAMEBUFFER_SRGB on desktop GL), which gives the stored bytes back. */
static int draw_levels(
    preload_gl *gl, GLuint texture, int srgb, int width, int height, int level_count, uint8_t *rgba, uint32_t *gl_error) {
    int status = prepare_drawing(gl);
    if (status != PRELOAD_GL_OK) return status;
    GLuint target = 0, framebuffer = 0;
    gl->f.glGenTextures(1, &target);
    gl->f.glBindTexture(GL_TEXTURE_2D, target);
    gl->f.glTexImage2D(
        GL_TEXTURE_2D, 0, (GLint)(srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8), width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    gl->f.glGenFramebuffers(1, &framebuffer);
    gl->f.glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    gl->f.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
    status = check(gl, gl_error, "making the read-back framebuffer", 0);
    GLenum complete = gl->f.glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status == PRELOAD_GL_OK && complete != GL_FRAMEBUFFER_COMPLETE) {
        status = fail(gl, PRELOAD_GL_DRAW_FAILED, "the read-back framebuffer is incomplete (0x%04X)", complete);
    }
    if (status == PRELOAD_GL_OK) {
        if (gl->api != PRELOAD_GL_API_ES) {
            if (srgb) gl->f.glEnable(GL_FRAMEBUFFER_SRGB);
            else gl->f.glDisable(GL_FRAMEBUFFER_SRGB);
        }
        gl->f.glDisable(GL_DITHER);
        gl->f.glActiveTexture(GL_TEXTURE0);
        gl->f.glBindTexture(GL_TEXTURE_2D, texture);
        gl->f.glUseProgram(gl->program);
        gl->f.glBindVertexArray(gl->vertex_array);
        size_t offset = 0;
        for (int level = 0; level < level_count && status == PRELOAD_GL_OK; level++) {
            int level_width = level_size(width, level), level_height = level_size(height, level);
            gl->f.glViewport(0, 0, level_width, level_height);
            gl->f.glUniform1i(gl->level_location, level);
            gl->f.glDrawArrays(GL_TRIANGLES, 0, 3);
            gl->f.glReadPixels(0, 0, level_width, level_height, GL_RGBA, GL_UNSIGNED_BYTE, rgba + offset);
            status = check(gl, gl_error, "drawing and reading a level", level);
            offset += (size_t)level_width * level_height * 4;
        }
        gl->f.glBindVertexArray(0);
        if (gl->api != PRELOAD_GL_API_ES) gl->f.glDisable(GL_FRAMEBUFFER_SRGB);
    }
    gl->f.glBindFramebuffer(GL_FRAMEBUFFER, 0);
    gl->f.glDeleteFramebuffers(1, &framebuffer);
    gl->f.glDeleteTextures(1, &target);
    return status;
}

static int upload_and_read(
    preload_gl *gl, const format_info *info, int width, int height, int level_count, const uint8_t *data, int method,
    uint8_t *rgba, uint32_t *gl_error) {
    for (int drained = 0; drained < 16 && gl->f.glGetError() != GL_NO_ERROR; drained++) {
    }
    GLuint texture = 0;
    gl->f.glGenTextures(1, &texture);
    gl->f.glActiveTexture(GL_TEXTURE0);
    gl->f.glBindTexture(GL_TEXTURE_2D, texture);
    gl->f.glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    gl->f.glPixelStorei(GL_PACK_ALIGNMENT, 1);
    int status = PRELOAD_GL_OK;
    size_t offset = 0;
    for (int level = 0; level < level_count && status == PRELOAD_GL_OK; level++) {
        int level_width = level_size(width, level), level_height = level_size(height, level);
        size_t bytes = preload_gl_level_byte_count(info->format, level_width, level_height);
        if (info->family == UNCOMPRESSED) {
            gl->f.glTexImage2D(
                GL_TEXTURE_2D, level, (GLint)info->format, level_width, level_height, 0, GL_RGBA, GL_UNSIGNED_BYTE, data + offset);
            status = check(gl, gl_error, "glTexImage2D", level);
        } else {
            gl->f.glCompressedTexImage2D(
                GL_TEXTURE_2D, level, info->format, level_width, level_height, 0, (GLsizei)bytes, data + offset);
            status = check(gl, gl_error, "glCompressedTexImage2D", level);
        }
        offset += bytes;
    }
    if (status == PRELOAD_GL_OK) {
        gl->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
        gl->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, level_count - 1);
        gl->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
        gl->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        gl->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        gl->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        status = check(gl, gl_error, "glTexParameteri", 0);
    }
    if (status == PRELOAD_GL_OK && method == PRELOAD_GL_READ_GET_TEX_IMAGE) {
        size_t read = 0;
        for (int level = 0; level < level_count && status == PRELOAD_GL_OK; level++) {
            int level_width = level_size(width, level), level_height = level_size(height, level);
            gl->f.glGetTexImage(GL_TEXTURE_2D, level, GL_RGBA, GL_UNSIGNED_BYTE, rgba + read);
            status = check(gl, gl_error, "glGetTexImage", level);
            read += (size_t)level_width * level_height * 4;
        }
    } else if (status == PRELOAD_GL_OK) {
        status = draw_levels(gl, texture, info->srgb, width, height, level_count, rgba, gl_error);
    }
    gl->f.glBindTexture(GL_TEXTURE_2D, 0);
    gl->f.glDeleteTextures(1, &texture);
    return status;
}

int preload_gl_read_back(
    preload_gl *gl, uint32_t internal_format, int width, int height, int level_count, const uint8_t *data,
    size_t byte_count, int method, uint8_t *rgba, uint32_t *gl_error) {
    *gl_error = 0;
    gl->message[0] = 0;
    format_info info;
    if (!find_format(internal_format, &info)) {
        return fail(gl, PRELOAD_GL_BAD_ARGUMENT, "the harness does not know the format 0x%04X", internal_format);
    }
    if (width < 1 || height < 1 || width > 16384 || height > 16384) {
        return fail(gl, PRELOAD_GL_BAD_ARGUMENT, "no texture of %dx%d", width, height);
    }
    int largest = width > height ? width : height, full_chain = 1;
    while (largest > 1) largest >>= 1, full_chain++;
    if (level_count < 1 || level_count > full_chain) {
        return fail(gl, PRELOAD_GL_BAD_ARGUMENT, "%d levels: a %dx%d texture has 1 to %d", level_count, width, height, full_chain);
    }
    size_t expected = 0;
    for (int level = 0; level < level_count; level++) {
        expected += preload_gl_level_byte_count(internal_format, level_size(width, level), level_size(height, level));
    }
    if (byte_count != expected) {
        return fail(
            gl, PRELOAD_GL_BAD_ARGUMENT, "%zu bytes given; %d levels of 0x%04X at %dx%d hold %zu", byte_count, level_count,
            internal_format, width, height, expected);
    }
    if (method == PRELOAD_GL_READ_AUTOMATIC) {
        method = gl->api == PRELOAD_GL_API_ES ? PRELOAD_GL_READ_DRAW : PRELOAD_GL_READ_GET_TEX_IMAGE;
    }
    if (method == PRELOAD_GL_READ_GET_TEX_IMAGE && gl->api == PRELOAD_GL_API_ES) {
        return fail(gl, PRELOAD_GL_BAD_ARGUMENT, "OpenGL ES has no glGetTexImage: read by drawing");
    }
    if (method != PRELOAD_GL_READ_GET_TEX_IMAGE && method != PRELOAD_GL_READ_DRAW) {
        return fail(gl, PRELOAD_GL_BAD_ARGUMENT, "no read-back method numbered %d", method);
    }
    if (!preload_gl_format_support(gl, internal_format)) {
        return fail(
            gl, PRELOAD_GL_UNSUPPORTED_FORMAT, "the driver (%s) does not list the format 0x%04X", gl->description,
            internal_format);
    }
    int status = make_current(gl);
    if (status != PRELOAD_GL_OK) {
        return fail(gl, status, "the context cannot be made current (EGL error 0x%04X)", gl->f.eglGetError());
    }
    status = upload_and_read(gl, &info, width, height, level_count, data, method, rgba, gl_error);
    release_current(gl);
    return status;
}
