// The parts of libsndfile's, libvorbisfile's and libmpg123's APIs that PreloadAudio uses,
// declared here so that the package builds without their development headers: the plugin opens
// libsndfile.so.1 (FLAC, Ogg Opus), libvorbisfile.so.3 (Ogg Vorbis) and libmpg123.so.0 (MP3) at
// run time (Preload's SystemLibrary) and calls these functions through pointers. libsndfile also
// decodes the WAV codecs the plugin does not read itself (Microsoft and IMA ADPCM, A-law, µ-law).
//
// The declarations follow <sndfile.h> of libsndfile 1.x, <vorbis/vorbisfile.h> of libvorbis 1.3
// and <mpg123.h> of libmpg123 1.x (API 47) on 64-bit Linux; preload_audio.c checks the sizes
// against Debian 12's headers. The memory readers are this target's own: each library's I/O
// callbacks over bytes already in memory (a file read whole, a pack entry, a mapped baked pack).
#ifndef PRELOAD_AUDIO_H
#define PRELOAD_AUDIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef int64_t sf_count_t;

/// An open sound file (opaque).
typedef struct SNDFILE_tag SNDFILE;

/// What sf_open says about a file.
typedef struct SF_INFO {
    sf_count_t frames;
    int samplerate;
    int channels;
    int format;
    int sections;
    int seekable;
} SF_INFO;

typedef sf_count_t (*sf_vio_get_filelen)(void *user_data);
typedef sf_count_t (*sf_vio_seek)(sf_count_t offset, int whence, void *user_data);
typedef sf_count_t (*sf_vio_read)(void *ptr, sf_count_t count, void *user_data);
typedef sf_count_t (*sf_vio_write)(const void *ptr, sf_count_t count, void *user_data);
typedef sf_count_t (*sf_vio_tell)(void *user_data);

/// libsndfile's virtual I/O: the functions it reads a file through.
typedef struct SF_VIRTUAL_IO {
    sf_vio_get_filelen get_filelen;
    sf_vio_seek seek;
    sf_vio_read read;
    sf_vio_write write;
    sf_vio_tell tell;
} SF_VIRTUAL_IO;

enum {
    PRELOAD_SFM_READ = 0x10,
    PRELOAD_SFC_SET_NORM_FLOAT = 0x1013,
    PRELOAD_SFC_SET_SCALE_FLOAT_INT_READ = 0x1014,
    PRELOAD_SFC_SET_CLIPPING = 0x10C0,
    PRELOAD_SF_FORMAT_TYPEMASK = 0x0FFF0000,
    PRELOAD_SF_FORMAT_SUBMASK = 0x0000FFFF,
    PRELOAD_SF_FORMAT_WAV = 0x010000,
    PRELOAD_SF_FORMAT_WAVEX = 0x130000,
    PRELOAD_SF_FORMAT_FLAC = 0x170000,
    PRELOAD_SF_FORMAT_OGG = 0x200000,
    PRELOAD_SF_FORMAT_MPEG = 0x230000,
    PRELOAD_SF_FORMAT_VORBIS = 0x0060,
    PRELOAD_SF_FORMAT_OPUS = 0x0064,
};

typedef SNDFILE *(*PreloadSFOpenVirtual)(SF_VIRTUAL_IO *sfvirtual, int mode, SF_INFO *sfinfo, void *user_data);
typedef int (*PreloadSFClose)(SNDFILE *sndfile);
typedef int (*PreloadSFError)(SNDFILE *sndfile);
typedef const char *(*PreloadSFStrError)(SNDFILE *sndfile);
typedef int (*PreloadSFCommand)(SNDFILE *sndfile, int command, void *data, int datasize);
typedef sf_count_t (*PreloadSFSeek)(SNDFILE *sndfile, sf_count_t frames, int whence);
typedef sf_count_t (*PreloadSFReadFShort)(SNDFILE *sndfile, short *ptr, sf_count_t frames);
typedef sf_count_t (*PreloadSFReadFFloat)(SNDFILE *sndfile, float *ptr, sf_count_t frames);
typedef const char *(*PreloadSFVersionString)(void);

/// Bytes in memory that a library reads through this target's callbacks: they must stay valid,
/// unchanged, until the file opened on them is closed.
typedef struct PreloadAudioMemory {
    const uint8_t *bytes;
    sf_count_t count;
    sf_count_t position;
} PreloadAudioMemory;

/// The virtual I/O table that reads a PreloadAudioMemory (user_data): reads, seeks and tells
/// stay inside its bytes; writes fail.
SF_VIRTUAL_IO *preload_sndfile_memory_io(void);

// MARK: libvorbisfile

/// An open Ogg Vorbis stream: libvorbisfile's OggVorbis_File, 944 bytes in libvorbis 1.3.7 on
/// 64-bit Linux. The plugin allocates this much room and only passes its address.
typedef struct PreloadOggVorbisFile {
    _Alignas(16) unsigned char opaque[2048];
} PreloadOggVorbisFile;

/// libvorbisfile's I/O callbacks.
typedef struct ov_callbacks {
    size_t (*read_func)(void *ptr, size_t size, size_t nmemb, void *datasource);
    int (*seek_func)(void *datasource, int64_t offset, int whence);
    int (*close_func)(void *datasource);
    long (*tell_func)(void *datasource);
} ov_callbacks;

/// The start of libvorbis's vorbis_info (only these fields are read).
typedef struct vorbis_info {
    int version;
    int channels;
    long rate;
} vorbis_info;

typedef int (*PreloadOVOpenCallbacks)(void *datasource, PreloadOggVorbisFile *vf, const char *initial, long ibytes,
                                      ov_callbacks callbacks);
typedef int (*PreloadOVClear)(PreloadOggVorbisFile *vf);
typedef int64_t (*PreloadOVPcmTotal)(PreloadOggVorbisFile *vf, int i);
typedef vorbis_info *(*PreloadOVInfo)(PreloadOggVorbisFile *vf, int link);
typedef long (*PreloadOVReadFloat)(PreloadOggVorbisFile *vf, float ***pcm_channels, int samples, int *bitstream);
typedef long (*PreloadOVRead)(PreloadOggVorbisFile *vf, char *buffer, int length, int bigendianp, int word, int sgned, int *bitstream);
typedef int (*PreloadOVPcmSeek)(PreloadOggVorbisFile *vf, int64_t pos);

/// The callbacks that read a PreloadAudioMemory (the datasource) for libvorbisfile.
ov_callbacks preload_vorbis_memory_callbacks(void);

// MARK: libmpg123

typedef struct mpg123_handle_struct mpg123_handle;

enum {
    PRELOAD_MPG123_OK = 0,
    PRELOAD_MPG123_DONE = -12,
    PRELOAD_MPG123_NEW_FORMAT = -11,
    PRELOAD_MPG123_ADD_FLAGS = 2,
    PRELOAD_MPG123_QUIET = 0x20,
    PRELOAD_MPG123_GAPLESS = 0x40,
    PRELOAD_MPG123_FORCE_FLOAT = 0x400,
    PRELOAD_MPG123_ENC_FLOAT_32 = 0x200,
    PRELOAD_MPG123_ENC_SIGNED_16 = 0xd0,
};

typedef int (*PreloadMpg123Init)(void);
typedef mpg123_handle *(*PreloadMpg123New)(const char *decoder, int *error);
typedef void (*PreloadMpg123Delete)(mpg123_handle *mh);
typedef int (*PreloadMpg123Param)(mpg123_handle *mh, int type, long value, double fvalue);
typedef int (*PreloadMpg123ReplaceReaderHandle)(mpg123_handle *mh, ssize_t (*r_read)(void *, void *, size_t),
                                                off_t (*r_lseek)(void *, off_t, int), void (*cleanup)(void *));
typedef int (*PreloadMpg123OpenHandle)(mpg123_handle *mh, void *iohandle);
typedef int (*PreloadMpg123Close)(mpg123_handle *mh);
typedef int (*PreloadMpg123Scan)(mpg123_handle *mh);
typedef off_t (*PreloadMpg123Length)(mpg123_handle *mh);
typedef int (*PreloadMpg123GetFormat)(mpg123_handle *mh, long *rate, int *channels, int *encoding);
typedef int (*PreloadMpg123Read)(mpg123_handle *mh, void *outmemory, size_t outmemsize, size_t *done);
typedef off_t (*PreloadMpg123Seek)(mpg123_handle *mh, off_t sampleoff, int whence);
typedef const char *(*PreloadMpg123StrError)(mpg123_handle *mh);

/// libmpg123's reader over a PreloadAudioMemory (the I/O handle).
ssize_t preload_mpg123_memory_read(void *handle, void *buffer, size_t count);
/// libmpg123's seek over a PreloadAudioMemory.
off_t preload_mpg123_memory_seek(void *handle, off_t offset, int whence);

#endif
