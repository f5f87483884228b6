// giflib's memory reader, and the sizes of the structures declared in preload_gif.h as giflib
// 5.x's <gif_lib.h> gives them on 64-bit Linux: a change to the declarations that moves a field
// fails the build here rather than at run time.
#include "preload_gif.h"

#include <string.h>

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(ColorMapObject) == 24, "ColorMapObject differs from giflib's");
_Static_assert(sizeof(GifImageDesc) == 32, "GifImageDesc differs from giflib's");
_Static_assert(sizeof(SavedImage) == 56, "SavedImage differs from giflib's");
_Static_assert(offsetof(GifFileType, SColorMap) == 24, "GifFileType.SColorMap differs from giflib's");
_Static_assert(offsetof(GifFileType, Image) == 40, "GifFileType.Image differs from giflib's");
_Static_assert(offsetof(GifFileType, UserData) == 104, "GifFileType.UserData differs from giflib's");
_Static_assert(sizeof(GifFileType) == 120, "GifFileType differs from giflib's");
_Static_assert(sizeof(GraphicsControlBlock) == 16, "GraphicsControlBlock differs from giflib's");
#endif

int preload_gif_read(GifFileType *gif, GifByteType *buffer, int length) {
    PreloadGIFMemory *memory = (PreloadGIFMemory *)gif->UserData;
    if (length <= 0 || memory->offset >= memory->count) return 0;
    size_t available = memory->count - memory->offset;
    size_t copied = (size_t)length < available ? (size_t)length : available;
    memcpy(buffer, memory->bytes + memory->offset, copied);
    memory->offset += copied;
    return (int)copied;
}
