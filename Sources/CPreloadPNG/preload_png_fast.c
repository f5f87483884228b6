#include "preload_png_fast.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PRELOAD_X86 1
#endif

/* libpng's limits, as Debian builds it: a chunk other than IDAT over 8,000,000 bytes is an
   error ("chunk data is too large"), and more than 1000 cached text chunks is a warning. */
enum { CHUNK_MALLOC_MAX = 8000000, MAX_TEXT_CHUNKS = 100, MAX_WIDTH = 1 << 24 };

struct preload_png_fast {
    const uint8_t *data;
    const preload_png_deflate_functions *functions;
    uint32_t width, height;
    uint8_t color_type;
    uint8_t channels;         /* of the stored samples: 1 (grey, palette), 2, 3 or 4 */
    uint8_t has_key;          /* tRNS on a grey or RGB image */
    uint8_t key[3];           /* its grey, or red, green and blue */
    uint16_t palette_entries; /* for a palette image: entries PLTE gave */
    size_t stored_stride;     /* 1 + width * channels: a filtered row */
    size_t output_stride;     /* width * 4 */
    uint64_t working_bytes;
    size_t data_offset;       /* where the filtered rows start in the working memory */
    /* The IDAT chunks' data: one range, or `idat_count` chunks from `first_idat`. */
    size_t first_idat, idat_count, idat_total;
    uint8_t *rows;            /* two unfiltered rows for the layouts expanded into RGBA, or a
                                 zero row (the one above the first) for RGBA */
    uint8_t *previous, *current;
    uint32_t palette[256];    /* RGBA8 as stored in memory, read as a little-endian word */
};

/* Per thread: a test that asks for the scalar code gets it for its own decodes, and the decodes
   other tests run at the same time (on their own threads) keep the vector code, unraced. */
static _Thread_local int vectors_enabled = 1;

void preload_png_fast_set_vectors(int enabled) { vectors_enabled = enabled != 0; }

int preload_png_fast_vectors(void) { return vectors_enabled; }

static uint32_t big_endian(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

static uint32_t type_of(const char name[4]) { return big_endian((const uint8_t *)name); }

static int is_letter(uint8_t byte) { return (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z'); }

/* What the chunk walk has seen. */
typedef struct {
    int have_ihdr, have_plte, have_trns, have_gama, have_srgb, have_phys, have_time, have_bkgd;
    int in_idat, after_idat, have_iend;
    uint32_t gamma;
    int texts;
} walk_state;

static uint64_t idat_limit(const preload_png_fast *fast) {
    /* png_check_chunk_length for IDAT (libpng 1.6.39). */
    uint64_t row_factor = fast->stored_stride;
    uint64_t limit = fast->height > UINT32_MAX / row_factor ? 0x7fffffffu : (uint64_t)fast->height * row_factor;
    uint64_t capped = row_factor > 32566 ? 32566 : row_factor;
    limit += 6 + 5 * (limit / capped + 1);
    if (limit > 0x7fffffffu) limit = 0x7fffffffu;
    return limit < CHUNK_MALLOC_MAX ? CHUNK_MALLOC_MAX : limit;
}

static const char *read_ihdr(preload_png_fast *fast, const uint8_t *body, uint32_t length) {
    if (length != 13) return "an IHDR of the wrong length";
    uint32_t width = big_endian(body), height = big_endian(body + 4);
    uint8_t depth = body[8], type = body[9];
    if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu) return "an IHDR size libpng refuses";
    if (width > MAX_WIDTH) return "a width over 16M pixels";
    if (body[10] != 0 || body[11] != 0) return "an unknown compression or filter method";
    if (body[12] == 1) return "interlaced";
    if (body[12] != 0) return "an unknown interlace method";
    switch (type) {
    case 0: fast->channels = 1; break;
    case 2: fast->channels = 3; break;
    case 3: fast->channels = 1; break;
    case 4: fast->channels = 2; break;
    case 6: fast->channels = 4; break;
    default: return "an unknown colour type";
    }
    if (depth == 16) return "16-bit samples";
    if (depth != 8) return "samples of fewer than 8 bits";
    fast->width = width;
    fast->height = height;
    fast->color_type = type;
    fast->stored_stride = 1 + (size_t)width * fast->channels;
    fast->output_stride = (size_t)width * 4;
    return NULL;
}

static const char *read_plte(preload_png_fast *fast, walk_state *state, const uint8_t *body, uint32_t length) {
    if (fast->color_type == 0 || fast->color_type == 4) return "a PLTE in a grey image";
    if (state->have_plte) return "a second PLTE";
    if (state->in_idat || state->after_idat) return "a PLTE after the image data";
    if (state->have_trns || state->have_bkgd) return "a PLTE after tRNS or bKGD";
    if (length == 0 || length % 3 != 0 || length > 768) return "a PLTE of the wrong length";
    state->have_plte = 1;
    if (fast->color_type != 3) return NULL; /* a suggested palette: read, not used */
    uint32_t entries = length / 3;
    for (uint32_t index = 0; index < 256; index++) {
        if (index < entries) {
            const uint8_t *rgb = body + 3 * index;
            fast->palette[index] = (uint32_t)rgb[0] | (uint32_t)rgb[1] << 8 | (uint32_t)rgb[2] << 16 | 0xff000000u;
        } else {
            /* libpng's palette is zeroed past its entries: an index there is opaque black, with
               no warning (checked against libpng 1.6.39 by FastPathTests). */
            fast->palette[index] = 0xff000000u;
        }
    }
    fast->palette_entries = (uint16_t)entries;
    return NULL;
}

static const char *read_trns(preload_png_fast *fast, walk_state *state, const uint8_t *body, uint32_t length) {
    if (state->have_trns) return "a second tRNS";
    if (state->in_idat || state->after_idat) return "a tRNS after the image data";
    state->have_trns = 1;
    switch (fast->color_type) {
    case 3:
        if (!state->have_plte) return "a tRNS before PLTE";
        if (length == 0 || length > fast->palette_entries) return "a tRNS longer than the palette";
        for (uint32_t index = 0; index < length; index++) {
            fast->palette[index] = (fast->palette[index] & 0x00ffffffu) | (uint32_t)body[index] << 24;
        }
        return NULL;
    case 0:
        if (length != 2) return "a tRNS of the wrong length";
        if (body[0] != 0) return "a tRNS key out of range";
        fast->has_key = 1;
        fast->key[0] = body[1];
        return NULL;
    case 2:
        if (length != 6) return "a tRNS of the wrong length";
        if (body[0] != 0 || body[2] != 0 || body[4] != 0) return "a tRNS key out of range";
        fast->has_key = 1;
        fast->key[0] = body[1];
        fast->key[1] = body[3];
        fast->key[2] = body[5];
        return NULL;
    default: return "a tRNS in an image with alpha";
    }
}

static const char *read_bkgd(preload_png_fast *fast, walk_state *state, const uint8_t *body, uint32_t length) {
    if (state->have_bkgd) return "a second bKGD";
    if (state->in_idat || state->after_idat) return "a bKGD after the image data";
    state->have_bkgd = 1;
    if (fast->color_type == 3) {
        if (!state->have_plte) return "a bKGD before PLTE";
        if (length != 1 || body[0] >= fast->palette_entries) return "an invalid bKGD";
    } else if (fast->color_type & 2) {
        if (length != 6 || body[0] != 0 || body[2] != 0 || body[4] != 0) return "an invalid bKGD";
    } else if (length != 2 || body[0] != 0) {
        return "an invalid bKGD";
    }
    return NULL;
}

/* gAMA and sRGB alone, or together when gAMA is sRGB's own 45455: libpng reads them silently. */
static const char *read_colour_space(walk_state *state, uint32_t type, const uint8_t *body, uint32_t length) {
    if (state->have_plte || state->in_idat || state->after_idat) return "a gAMA or sRGB out of place";
    if (type == type_of("gAMA")) {
        if (state->have_gama) return "a second gAMA";
        if (length != 4) return "a gAMA of the wrong length";
        uint32_t gamma = big_endian(body);
        if (gamma < 16 || gamma > 625000000u) return "a gAMA out of range";
        if (state->have_srgb && gamma != 45455) return "a gAMA that is not sRGB's";
        state->have_gama = 1;
        state->gamma = gamma;
    } else {
        if (state->have_srgb) return "a second sRGB";
        if (length != 1 || body[0] > 3) return "an invalid sRGB";
        if (state->have_gama && state->gamma != 45455) return "a gAMA that is not sRGB's";
        state->have_srgb = 1;
    }
    return NULL;
}

static const char *read_time(walk_state *state, const uint8_t *body, uint32_t length) {
    if (state->have_time) return "a second tIME";
    state->have_time = 1;
    if (length != 7) return "a tIME of the wrong length";
    uint8_t month = body[2], day = body[3], hour = body[4], minute = body[5], second = body[6];
    if (month == 0 || month > 12 || day == 0 || day > 31 || hour > 23 || minute > 59 || second > 60) {
        return "an invalid tIME";
    }
    return NULL;
}

static const char *read_text(walk_state *state, const uint8_t *body, uint32_t length) {
    if (++state->texts > MAX_TEXT_CHUNKS) return "too many tEXt chunks";
    uint32_t keyword = 0;
    while (keyword < length && body[keyword] != 0) keyword++;
    if (keyword == 0 || keyword > 79 || keyword == length) return "a tEXt without a valid keyword";
    return NULL;
}

/* Whether a chunk libpng knows by name (and the fast path does not read) is in `type`. */
static int libpng_knows(uint32_t type) {
    static const char *const known[] = {"cHRM", "iCCP", "sBIT", "sPLT", "hIST", "oFFs", "pCAL",
                                        "sCAL", "zTXt", "iTXt", "eXIf"};
    for (size_t index = 0; index < sizeof known / sizeof known[0]; index++) {
        if (type == type_of(known[index])) return 1;
    }
    return 0;
}

static const char *walk(preload_png_fast *fast, const uint8_t *data, size_t size) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    if (size < 8 || memcmp(data, signature, 8) != 0) return "no PNG signature";
    walk_state state;
    memset(&state, 0, sizeof state);
    size_t offset = 8;
    while (!state.have_iend) {
        if (size - offset < 12) return "the file ends before IEND";
        uint32_t length = big_endian(data + offset);
        const uint8_t *name = data + offset + 4, *body = data + offset + 8;
        if (length > 0x7fffffffu) return "a chunk length out of range";
        if (!is_letter(name[0]) || !is_letter(name[1]) || !is_letter(name[2]) || !is_letter(name[3])) {
            return "an invalid chunk type";
        }
        if (size - offset - 12 < length) return "a chunk cut short";
        /* libdeflate's CRC-32, not the project's CPreloadCRC: that one leaves runs under 64 bytes
           and tails to zlib, and with it the fast path measured 1.7x libpng on 16x16 sprites
           instead of 2.2x, 2.6x instead of 2.9x on large images (png-decode-bench). */
        if (fast->functions->crc32(0, name, (size_t)length + 4) != big_endian(body + length)) {
            return "a chunk's CRC does not match";
        }
        uint32_t type = big_endian(name);
        if (!state.have_ihdr) {
            if (type != type_of("IHDR")) return "no IHDR first";
            const char *reason = read_ihdr(fast, body, length);
            if (reason) return reason;
            state.have_ihdr = 1;
            offset += 12 + (size_t)length;
            continue;
        }
        if (type == type_of("IDAT")) {
            if (length > idat_limit(fast)) return "an IDAT larger than libpng allows";
        } else if (length > CHUNK_MALLOC_MAX) {
            return "a chunk larger than libpng allows";
        }
        if (state.in_idat && type != type_of("IDAT")) {
            state.in_idat = 0;
            state.after_idat = 1;
        }
        const char *reason = NULL;
        if (type == type_of("IDAT")) {
            if (state.after_idat) return "IDAT chunks apart";
            if (fast->color_type == 3 && !state.have_plte) return "no PLTE before IDAT";
            if (length == 0) return "an empty IDAT";
            if (!state.in_idat) fast->first_idat = offset;
            state.in_idat = 1;
            fast->idat_count++;
            fast->idat_total += length;
        } else if (type == type_of("IEND")) {
            if (!state.after_idat) return "no IDAT before IEND";
            if (length != 0) return "an IEND with data";
            state.have_iend = 1;
        } else if (type == type_of("IHDR")) {
            reason = "a second IHDR";
        } else if (type == type_of("PLTE")) {
            reason = read_plte(fast, &state, body, length);
        } else if (type == type_of("tRNS")) {
            reason = read_trns(fast, &state, body, length);
        } else if (type == type_of("bKGD")) {
            reason = read_bkgd(fast, &state, body, length);
        } else if (type == type_of("gAMA") || type == type_of("sRGB")) {
            reason = read_colour_space(&state, type, body, length);
        } else if (type == type_of("pHYs")) {
            if (state.have_phys || state.in_idat || state.after_idat || length != 9) reason = "an invalid pHYs";
            state.have_phys = 1;
        } else if (type == type_of("tIME")) {
            reason = read_time(&state, body, length);
        } else if (type == type_of("tEXt")) {
            reason = read_text(&state, body, length);
        } else if (libpng_knows(type)) {
            reason = "a chunk the fast path does not read (cHRM, iCCP, sBIT, zTXt, iTXt, ...)";
        } else if (!(name[0] & 0x20)) {
            reason = "an unknown critical chunk";
        } /* else an unknown ancillary chunk: libpng skips it */
        if (reason) return reason;
        offset += 12 + (size_t)length;
    }
    if (fast->idat_count == 0) return "no IDAT";
    /* libpng inflates with the window the zlib header declares: a stream that reaches further
       back fails there. Only a 32K window, or a smaller one holding all the image data, is
       sure to read the same with libdeflate. */
    const uint8_t *zlib = data + fast->first_idat + 8;
    if (big_endian(data + fast->first_idat) < 2) return "a zlib header split across IDATs";
    uint32_t window_bits = (zlib[0] >> 4) + 8;
    if ((zlib[0] & 0x0f) != 8 || window_bits > 15 || ((uint32_t)zlib[0] << 8 | zlib[1]) % 31 != 0 || (zlib[1] & 0x20)) {
        return "an invalid zlib header";
    }
    if (window_bits < 15 && (uint64_t)fast->stored_stride * fast->height > ((uint64_t)1 << window_bits)) {
        return "a zlib window smaller than the image data";
    }
    return NULL;
}

preload_png_fast *preload_png_fast_create(const uint8_t *data, size_t size,
                                          const preload_png_deflate_functions *functions,
                                          preload_png_info *info, const char **reason) {
    preload_png_fast *fast = calloc(1, sizeof *fast);
    if (fast == NULL) {
        *reason = "out of memory";
        return NULL;
    }
    fast->data = data;
    fast->functions = functions;
    const char *declined = walk(fast, data, size);
    if (declined) {
        free(fast);
        *reason = declined;
        return NULL;
    }
    uint64_t decoded = (uint64_t)fast->output_stride * fast->height;
    uint64_t stored = (uint64_t)fast->stored_stride * fast->height;
    fast->working_bytes = stored > decoded ? stored : decoded;
    fast->data_offset = fast->channels == 4 ? 0 : (size_t)(decoded - stored);
    memset(info, 0, sizeof *info);
    info->width = fast->width;
    info->height = fast->height;
    info->bit_depth = 8;
    info->color_type = fast->color_type;
    info->bytes_per_sample = 1;
    info->passes = 1;
    info->row_bytes = fast->output_stride;
    info->decoded_bytes = decoded;
    return fast;
}

void preload_png_fast_destroy(preload_png_fast *fast) {
    if (fast == NULL) return;
    free(fast->rows);
    free(fast);
}

uint64_t preload_png_fast_working_bytes(const preload_png_fast *fast) { return fast->working_bytes; }

/* ---- Inflate ---- */

/* One decompressor per thread, kept for the thread's life (libdeflate's is ~32 KB to set up). */
typedef struct {
    void *decompressor;
    const preload_png_deflate_functions *functions;
} thread_decompressor;

static pthread_key_t decompressor_key;
static pthread_once_t decompressor_once = PTHREAD_ONCE_INIT;

static void free_thread_decompressor(void *value) {
    thread_decompressor *slot = value;
    slot->functions->free_decompressor(slot->decompressor);
    free(slot);
}

static void make_decompressor_key(void) { pthread_key_create(&decompressor_key, free_thread_decompressor); }

/* This thread's decompressor, made on first use; NULL when memory ran out. */
static void *decompressor_for(const preload_png_deflate_functions *functions) {
    pthread_once(&decompressor_once, make_decompressor_key);
    thread_decompressor *slot = pthread_getspecific(decompressor_key);
    if (slot != NULL) return slot->decompressor;
    slot = malloc(sizeof *slot);
    if (slot == NULL) return NULL;
    slot->functions = functions;
    slot->decompressor = functions->alloc_decompressor();
    if (slot->decompressor == NULL || pthread_setspecific(decompressor_key, slot) != 0) {
        if (slot->decompressor != NULL) functions->free_decompressor(slot->decompressor);
        free(slot);
        return NULL;
    }
    return slot->decompressor;
}

int preload_png_fast_inflate(preload_png_fast *fast, uint8_t *buffer, const char **reason) {
    const preload_png_deflate_functions *functions = fast->functions;
    const uint8_t *input = fast->data + fast->first_idat + 8;
    uint8_t *gathered = NULL;
    if (fast->idat_count > 1) {
        gathered = malloc(fast->idat_total);
        if (gathered == NULL) return -1;
        size_t offset = fast->first_idat, filled = 0;
        for (size_t chunk = 0; chunk < fast->idat_count; chunk++) {
            uint32_t length = big_endian(fast->data + offset);
            memcpy(gathered + filled, fast->data + offset + 8, length);
            filled += length;
            offset += 12 + (size_t)length;
        }
        input = gathered;
    }
    void *decompressor = decompressor_for(functions);
    if (decompressor == NULL) {
        free(gathered);
        return -1;
    }
    size_t stored = fast->stored_stride * (size_t)fast->height, consumed = 0;
    int result = functions->zlib_decompress_ex(decompressor, input, fast->idat_total, buffer + fast->data_offset,
                                               stored, &consumed, NULL);
    free(gathered);
    if (result != 0) {
        *reason = result == 2 ? "less image data than rows" : result == 3 ? "more image data than rows" : "damaged image data";
        return 0;
    }
    if (consumed != fast->idat_total) {
        *reason = "data after the zlib stream";
        return 0;
    }
    const uint8_t *filtered = buffer + fast->data_offset;
    for (uint32_t row = 0; row < fast->height; row++) {
        if (filtered[(size_t)row * fast->stored_stride] > 4) {
            *reason = "an unknown filter type";
            return 0;
        }
    }
    size_t row_bytes = fast->channels == 4 ? fast->output_stride : fast->stored_stride - 1;
    /* Rows are unfiltered into `current` over `previous` (zeros above the first); 16 bytes of
       slack let vector code read past a row's end. */
    fast->rows = calloc(fast->channels == 4 ? 1 : 2, row_bytes + 16);
    if (fast->rows == NULL) return -1;
    fast->previous = fast->rows;
    fast->current = fast->channels == 4 ? NULL : fast->rows + row_bytes + 16;
    return 1;
}

/* ---- Unfilter ---- */

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}

/* Reconstructs `count` bytes into `out` from the filtered `in` and the row above, `prior`.
   `out` may be `in` moved back by at least one byte (an RGBA row unfiltered in place): each
   step reads its input before writing, and writes only behind what it has yet to read. */
static void unfilter_scalar(int filter, uint8_t *out, const uint8_t *in, const uint8_t *prior, size_t count, size_t bpp) {
    size_t index;
    switch (filter) {
    case 0: memmove(out, in, count); break;
    case 1:
        for (index = 0; index < bpp && index < count; index++) out[index] = in[index];
        for (; index < count; index++) out[index] = (uint8_t)(in[index] + out[index - bpp]);
        break;
    case 2:
        for (index = 0; index < count; index++) out[index] = (uint8_t)(in[index] + prior[index]);
        break;
    case 3:
        for (index = 0; index < bpp && index < count; index++) out[index] = (uint8_t)(in[index] + (prior[index] >> 1));
        for (; index < count; index++) out[index] = (uint8_t)(in[index] + ((out[index - bpp] + prior[index]) >> 1));
        break;
    case 4:
        for (index = 0; index < bpp && index < count; index++) out[index] = (uint8_t)(in[index] + prior[index]);
        for (; index < count; index++) {
            out[index] = (uint8_t)(in[index] + paeth(out[index - bpp], prior[index], prior[index - bpp]));
        }
        break;
    }
}

#ifdef PRELOAD_X86
__attribute__((always_inline)) static inline __m128i load_pixel(const uint8_t *bytes, size_t bpp) {
    uint32_t word = 0;
    memcpy(&word, bytes, bpp);
    return _mm_cvtsi32_si128((int)word);
}

__attribute__((always_inline)) static inline void store_pixel(uint8_t *bytes, __m128i pixel, size_t bpp) {
    uint32_t word = (uint32_t)_mm_cvtsi128_si32(pixel);
    memcpy(bytes, &word, bpp);
}

static __m128i absolute(__m128i value) { return _mm_max_epi16(value, _mm_sub_epi16(_mm_setzero_si128(), value)); }

static __m128i choose(__m128i mask, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
}

/* Sub, Average and Paeth for 3- and 4-byte pixels, a pixel at a time in 16-bit lanes; Up 16
   bytes at a time. The same order of reads and writes as the scalar code. */
/* Always inlined with a constant `bpp`, so that a pixel's load and store are single moves. */
__attribute__((always_inline)) static inline void unfilter_sse2(int filter, uint8_t *out, const uint8_t *in, const uint8_t *prior,
                                                                size_t count, size_t bpp) {
    const __m128i zero = _mm_setzero_si128();
    size_t index = 0;
    switch (filter) {
    case 2:
        for (; index + 16 <= count; index += 16) {
            __m128i sum = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(in + index)),
                                       _mm_loadu_si128((const __m128i *)(prior + index)));
            _mm_storeu_si128((__m128i *)(out + index), sum);
        }
        for (; index < count; index++) out[index] = (uint8_t)(in[index] + prior[index]);
        return;
    case 1: {
        __m128i a = zero;
        for (; index < count; index += bpp) {
            a = _mm_add_epi8(load_pixel(in + index, bpp), a);
            store_pixel(out + index, a, bpp);
        }
        return;
    }
    case 3: {
        const __m128i one = _mm_set1_epi8(1);
        __m128i a = zero;
        for (; index < count; index += bpp) {
            __m128i b = load_pixel(prior + index, bpp);
            __m128i average = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
            a = _mm_add_epi8(load_pixel(in + index, bpp), average);
            store_pixel(out + index, a, bpp);
        }
        return;
    }
    case 4: {
        __m128i a = zero, c = zero;
        for (; index < count; index += bpp) {
            __m128i b = _mm_unpacklo_epi8(load_pixel(prior + index, bpp), zero);
            __m128i from_b = _mm_sub_epi16(b, c), from_a = _mm_sub_epi16(a, c);
            __m128i pa = absolute(from_b), pb = absolute(from_a), pc = absolute(_mm_add_epi16(from_b, from_a));
            __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
            __m128i predicted = choose(_mm_cmpeq_epi16(smallest, pa), a, choose(_mm_cmpeq_epi16(smallest, pb), b, c));
            __m128i value = _mm_add_epi8(load_pixel(in + index, bpp), _mm_packus_epi16(predicted, predicted));
            store_pixel(out + index, value, bpp);
            a = _mm_unpacklo_epi8(value, zero);
            c = b;
        }
        return;
    }
    default: memmove(out, in, count); return;
    }
}

__attribute__((target("ssse3"))) static void rgb_to_rgba_ssse3(uint8_t *out, const uint8_t *in, size_t pixels) {
    const __m128i spread = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i opaque = _mm_set1_epi32((int)0xff000000u);
    size_t pixel = 0;
    /* 16 bytes read for 4 pixels (12): the row has 16 bytes of slack. */
    for (; pixel + 4 <= pixels; pixel += 4) {
        __m128i rgb = _mm_loadu_si128((const __m128i *)(in + 3 * pixel));
        _mm_storeu_si128((__m128i *)(out + 4 * pixel), _mm_or_si128(_mm_shuffle_epi8(rgb, spread), opaque));
    }
    for (; pixel < pixels; pixel++) {
        uint32_t word = (uint32_t)in[3 * pixel] | (uint32_t)in[3 * pixel + 1] << 8 | (uint32_t)in[3 * pixel + 2] << 16 | 0xff000000u;
        memcpy(out + 4 * pixel, &word, 4);
    }
}
#endif

static void unfilter(int filter, uint8_t *out, const uint8_t *in, const uint8_t *prior, size_t count, size_t bpp) {
#ifdef PRELOAD_X86
    if (vectors_enabled && filter != 0 && (filter == 2 || bpp >= 3)) {
        if (bpp == 4) {
            unfilter_sse2(filter, out, in, prior, count, 4);
        } else {
            unfilter_sse2(filter, out, in, prior, count, 3); /* or Up, which has no pixel size */
        }
        return;
    }
#endif
    unfilter_scalar(filter, out, in, prior, count, bpp);
}

/* ---- Expansion to RGBA8 ---- */

static void store_word(uint8_t *out, size_t pixel, uint32_t word) { memcpy(out + 4 * pixel, &word, 4); }

static void expand_row(preload_png_fast *fast, uint8_t *out, const uint8_t *in) {
    size_t pixels = fast->width;
    switch (fast->color_type) {
    case 0:
        if (fast->has_key) {
            for (size_t pixel = 0; pixel < pixels; pixel++) {
                uint32_t grey = in[pixel];
                store_word(out, pixel, grey * 0x010101u | (grey == fast->key[0] ? 0 : 0xff000000u));
            }
        } else {
            for (size_t pixel = 0; pixel < pixels; pixel++) store_word(out, pixel, in[pixel] * 0x010101u | 0xff000000u);
        }
        return;
    case 4:
        for (size_t pixel = 0; pixel < pixels; pixel++) {
            store_word(out, pixel, in[2 * pixel] * 0x010101u | (uint32_t)in[2 * pixel + 1] << 24);
        }
        return;
    case 2:
        if (fast->has_key) {
            for (size_t pixel = 0; pixel < pixels; pixel++) {
                const uint8_t *rgb = in + 3 * pixel;
                int keyed = rgb[0] == fast->key[0] && rgb[1] == fast->key[1] && rgb[2] == fast->key[2];
                store_word(out, pixel, (uint32_t)rgb[0] | (uint32_t)rgb[1] << 8 | (uint32_t)rgb[2] << 16 | (keyed ? 0 : 0xff000000u));
            }
            return;
        }
#ifdef PRELOAD_X86
        if (vectors_enabled && __builtin_cpu_supports("ssse3")) {
            rgb_to_rgba_ssse3(out, in, pixels);
            return;
        }
#endif
        for (size_t pixel = 0; pixel < pixels; pixel++) {
            const uint8_t *rgb = in + 3 * pixel;
            store_word(out, pixel, (uint32_t)rgb[0] | (uint32_t)rgb[1] << 8 | (uint32_t)rgb[2] << 16 | 0xff000000u);
        }
        return;
    case 3:
        for (size_t pixel = 0; pixel < pixels; pixel++) store_word(out, pixel, fast->palette[in[pixel]]);
        return;
    }
}

void preload_png_fast_rows(preload_png_fast *fast, uint8_t *buffer, uint32_t first_row, uint32_t row_count) {
    size_t stored = fast->stored_stride, output = fast->output_stride, bpp = fast->channels;
    for (uint32_t row = first_row; row < first_row + row_count; row++) {
        const uint8_t *filtered = buffer + fast->data_offset + (size_t)row * stored;
        uint8_t *out = buffer + (size_t)row * output;
        if (fast->channels == 4) {
            const uint8_t *prior = row == 0 ? fast->previous : out - output;
            unfilter(filtered[0], out, filtered + 1, prior, output, 4);
        } else {
            unfilter(filtered[0], fast->current, filtered + 1, fast->previous, stored - 1, bpp);
            expand_row(fast, out, fast->current);
            uint8_t *swap = fast->previous;
            fast->previous = fast->current;
            fast->current = swap;
        }
    }
}
