// libsndfile's, libvorbisfile's and libmpg123's I/O over bytes in memory, and the sizes of the
// structures declared in preload_audio.h as Debian 12's headers give them on 64-bit Linux
// (measured with sizeof/offsetof: libsndfile 1.2.0, libvorbis 1.3.7): a change that moves a
// field fails the build here, not at run time.
#include "preload_audio.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(SF_INFO) == 32, "SF_INFO differs from libsndfile's");
_Static_assert(offsetof(SF_INFO, seekable) == 24, "SF_INFO.seekable differs from libsndfile's");
_Static_assert(sizeof(SF_VIRTUAL_IO) == 40, "SF_VIRTUAL_IO differs from libsndfile's");
_Static_assert(sizeof(ov_callbacks) == 32, "ov_callbacks differs from libvorbisfile's");
_Static_assert(offsetof(vorbis_info, rate) == 8, "vorbis_info.rate differs from libvorbis's");
_Static_assert(sizeof(PreloadOggVorbisFile) >= 944, "OggVorbis_File is 944 bytes in libvorbis 1.3.7");
_Static_assert(sizeof(off_t) == 8, "libmpg123's unsuffixed API takes a 64-bit off_t here");
#endif

static sf_count_t memory_length(void *user_data) { return ((PreloadAudioMemory *)user_data)->count; }

static sf_count_t memory_seek(sf_count_t offset, int whence, void *user_data) {
    PreloadAudioMemory *memory = user_data;
    sf_count_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = memory->position; break;
    case SEEK_END: base = memory->count; break;
    default: return -1;
    }
    // Past the end is allowed (a later read returns nothing), before the start is not.
    if (offset < -base || (offset > 0 && base > INT64_MAX - offset)) return -1;
    memory->position = base + offset;
    return memory->position;
}

static sf_count_t memory_read(void *ptr, sf_count_t count, void *user_data) {
    PreloadAudioMemory *memory = user_data;
    if (count <= 0 || memory->position >= memory->count) return 0;
    sf_count_t available = memory->count - memory->position;
    sf_count_t taken = count < available ? count : available;
    memcpy(ptr, memory->bytes + memory->position, (size_t)taken);
    memory->position += taken;
    return taken;
}

static sf_count_t memory_write(const void *ptr, sf_count_t count, void *user_data) {
    (void)ptr;
    (void)count;
    (void)user_data;
    return 0;
}

static sf_count_t memory_tell(void *user_data) { return ((PreloadAudioMemory *)user_data)->position; }

static SF_VIRTUAL_IO memory_io = {memory_length, memory_seek, memory_read, memory_write, memory_tell};

SF_VIRTUAL_IO *preload_sndfile_memory_io(void) { return &memory_io; }

static size_t vorbis_read(void *ptr, size_t size, size_t nmemb, void *datasource) {
    if (size == 0 || nmemb == 0) return 0;
    if (nmemb > (size_t)INT64_MAX / size) nmemb = (size_t)INT64_MAX / size;
    return (size_t)memory_read(ptr, (sf_count_t)(size * nmemb), datasource) / size;
}

static int vorbis_seek(void *datasource, int64_t offset, int whence) {
    return memory_seek(offset, whence, datasource) < 0 ? -1 : 0;
}

static long vorbis_tell(void *datasource) { return (long)memory_tell(datasource); }

ov_callbacks preload_vorbis_memory_callbacks(void) {
    ov_callbacks callbacks = {vorbis_read, vorbis_seek, NULL, vorbis_tell};
    return callbacks;
}

ssize_t preload_mpg123_memory_read(void *handle, void *buffer, size_t count) {
    if (count > (size_t)INT64_MAX) count = (size_t)INT64_MAX;
    return (ssize_t)memory_read(buffer, (sf_count_t)count, handle);
}

off_t preload_mpg123_memory_seek(void *handle, off_t offset, int whence) {
    return (off_t)memory_seek((sf_count_t)offset, whence, handle);
}
