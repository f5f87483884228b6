// Baseline for the audio plugin: read every audio file listed on stdin into memory and decode it
// whole to interleaved 16-bit PCM on T threads, with the libraries PreloadAudio uses, each the
// plain way (the shared loop: bare_loop.h): .ogg with libvorbisfile's ov_read, .mp3 with
// libmpg123's 16-bit output after a scan, .flac and .opus with libsndfile's sf_readf_short, and
// .wav (16-bit PCM) by finding its data chunk and copying it.
//
// build: cc -O2 -o audio_loop Benchmarks/Scripts/audio_loop.c $(pkg-config --cflags --libs sndfile vorbisfile libmpg123) -lpthread
// usage: find DIR -type f | sort | ./audio_loop [THREADS]
#include <mpg123.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vorbis/vorbisfile.h>

#define LOOP_NAME "audio to int16"
static void *loop_thread_begin(void) { return NULL; }
static void loop_thread_end(void *state) { (void)state; }
static void loop_options(int argc, char **argv) { (void)argc; (void)argv; mpg123_init(); }

typedef struct { const unsigned char *data; sf_count_t size, at; } memory;

static sf_count_t m_len(void *u) { return ((memory *)u)->size; }
static sf_count_t m_seek(sf_count_t o, int w, void *u) {
    memory *m = u; sf_count_t base = w == SEEK_SET ? 0 : w == SEEK_CUR ? m->at : m->size;
    if (base + o < 0) return -1; m->at = base + o; return m->at;
}
static sf_count_t m_read(void *p, sf_count_t n, void *u) {
    memory *m = u; if (m->at >= m->size) return 0; if (n > m->size - m->at) n = m->size - m->at;
    memcpy(p, m->data + m->at, n); m->at += n; return n;
}
static sf_count_t m_tell(void *u) { return ((memory *)u)->at; }
static size_t v_read(void *p, size_t s, size_t n, void *u) { return (size_t)m_read(p, (sf_count_t)(s * n), u) / s; }
static int v_seek(void *u, ogg_int64_t o, int w) { return m_seek(o, w, u) < 0 ? -1 : 0; }
static long v_tell(void *u) { return (long)m_tell(u); }
static ssize_t g_read(void *u, void *p, size_t n) { return (ssize_t)m_read(p, (sf_count_t)n, u); }
static off_t g_seek(void *u, off_t o, int w) { return (off_t)m_seek(o, w, u); }

static const char *current_extension(const unsigned char *data, size_t n) {
    if (n >= 12 && !memcmp(data, "RIFF", 4) && !memcmp(data + 8, "WAVE", 4)) return "wav";
    if (n >= 35 && !memcmp(data, "OggS", 4) && !memcmp(data + 29, "vorbis", 6)) return "ogg";
    if (n >= 3 && (!memcmp(data, "ID3", 3) || (data[0] == 0xFF && (data[1] & 0xE0) == 0xE0))) return "mp3";
    return "sndfile";
}

static unsigned char *loop_decode(void *state, const unsigned char *data, size_t n, size_t *out) {
    (void)state;
    memory m = {data, (sf_count_t)n, 0};
    const char *kind = current_extension(data, n);
    if (!strcmp(kind, "wav")) {
        size_t p = 12;
        while (p + 8 <= n) {
            unsigned size = data[p + 4] | data[p + 5] << 8 | data[p + 6] << 16 | (unsigned)data[p + 7] << 24;
            if (!memcmp(data + p, "data", 4)) {
                if (size > n - p - 8) return NULL;
                unsigned char *pcm = malloc(size ? size : 1); memcpy(pcm, data + p + 8, size); *out = size; return pcm;
            }
            p += 8 + size + (size & 1);
        }
        return NULL;
    }
    if (!strcmp(kind, "ogg")) {
        OggVorbis_File vf; ov_callbacks cb = {v_read, v_seek, NULL, v_tell};
        if (ov_open_callbacks(&m, &vf, NULL, 0, cb) != 0) return NULL;
        size_t total = (size_t)ov_pcm_total(&vf, -1) * ov_info(&vf, -1)->channels * 2, got = 0;
        unsigned char *pcm = malloc(total ? total : 1); int link;
        while (got < total) { long r = ov_read(&vf, (char *)pcm + got, (int)(total - got > 65536 ? 65536 : total - got), 0, 2, 1, &link); if (r <= 0) break; got += r; }
        ov_clear(&vf); *out = got; return pcm;
    }
    if (!strcmp(kind, "mp3")) {
        mpg123_handle *h = mpg123_new(NULL, NULL); long rate; int channels, encoding;
        mpg123_param(h, MPG123_ADD_FLAGS, MPG123_QUIET | MPG123_GAPLESS, 0);
        mpg123_format_none(h); mpg123_format(h, 44100, MPG123_MONO | MPG123_STEREO, MPG123_ENC_SIGNED_16);
        mpg123_format(h, 48000, MPG123_MONO | MPG123_STEREO, MPG123_ENC_SIGNED_16); mpg123_format(h, 22050, MPG123_MONO | MPG123_STEREO, MPG123_ENC_SIGNED_16);
        mpg123_replace_reader_handle(h, g_read, g_seek, NULL);
        if (mpg123_open_handle(h, &m) != MPG123_OK || mpg123_scan(h) != MPG123_OK || mpg123_getformat(h, &rate, &channels, &encoding) != MPG123_OK) { mpg123_delete(h); return NULL; }
        size_t total = (size_t)mpg123_length(h) * channels * 2, got = 0, done;
        unsigned char *pcm = malloc(total ? total : 1);
        while (got < total) { int r = mpg123_read(h, pcm + got, total - got, &done); got += done; if (r != MPG123_OK || done == 0) break; }
        mpg123_close(h); mpg123_delete(h); *out = got; return pcm;
    }
    SF_VIRTUAL_IO io = {m_len, m_seek, m_read, NULL, m_tell}; SF_INFO info = {0};
    SNDFILE *f = sf_open_virtual(&io, SFM_READ, &info, &m); if (!f) return NULL;
    short *pcm = malloc(info.frames * info.channels * 2 + 1);
    sf_count_t got = sf_readf_short(f, pcm, info.frames); sf_close(f);
    *out = (size_t)got * info.channels * 2; return (unsigned char *)pcm;
}

#include "bare_loop.h"
