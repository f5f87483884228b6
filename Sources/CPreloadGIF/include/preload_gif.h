// The part of giflib's decoding API that PreloadAnimation's GIF loader uses, declared here so
// that the package builds without giflib's development headers: the plugin opens libgif.so.7
// (Debian's libgif7, on a fresh machine) at run time (Preload's SystemLibrary) and calls these
// functions through pointers.
//
// The declarations follow <gif_lib.h> of giflib 5.x (the soname libgif.so.7: 5.1 and 5.2 share
// these structures) on 64-bit Linux; preload_gif.c checks their sizes. The memory reader is this
// target's own: giflib's input callback over bytes already in memory (a file read whole, a pack
// entry, a mapped baked pack).
#ifndef PRELOAD_GIF_H
#define PRELOAD_GIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRELOAD_GIF_ERROR 0
#define PRELOAD_GIF_OK 1

typedef unsigned char GifPixelType;
typedef unsigned char GifByteType;
typedef int GifWord;

/// One colour of a colour table.
typedef struct GifColorType {
    GifByteType Red, Green, Blue;
} GifColorType;

/// A colour table (the global one, or a frame's local one).
typedef struct ColorMapObject {
    int ColorCount;
    int BitsPerPixel;
    bool SortFlag;
    GifColorType *Colors;
} ColorMapObject;

/// An image descriptor: the frame's rectangle on the logical screen, interlacing, local table.
typedef struct GifImageDesc {
    GifWord Left, Top, Width, Height;
    bool Interlace;
    ColorMapObject *ColorMap;
} GifImageDesc;

/// An extension block kept by giflib's slurp mode (declared for SavedImage's size).
typedef struct ExtensionBlock {
    int ByteCount;
    GifByteType *Bytes;
    int Function;
} ExtensionBlock;

/// An image kept by giflib (not read: declared so GifFileType's layout is whole).
typedef struct SavedImage {
    GifImageDesc ImageDesc;
    GifByteType *RasterBits;
    int ExtensionBlockCount;
    ExtensionBlock *ExtensionBlocks;
} SavedImage;

/// An open GIF: the logical screen, the global colour table, the current image's descriptor.
typedef struct GifFileType {
    GifWord SWidth, SHeight;
    GifWord SColorResolution;
    GifWord SBackGroundColor;
    GifByteType AspectByte;
    ColorMapObject *SColorMap;
    int ImageCount;
    GifImageDesc Image;
    SavedImage *SavedImages;
    int ExtensionBlockCount;
    ExtensionBlock *ExtensionBlocks;
    int Error;
    void *UserData;
    void *Private;
} GifFileType;

/// What the next record of the file is.
typedef enum GifRecordType {
    UNDEFINED_RECORD_TYPE,
    SCREEN_DESC_RECORD_TYPE,
    IMAGE_DESC_RECORD_TYPE,
    EXTENSION_RECORD_TYPE,
    TERMINATE_RECORD_TYPE
} GifRecordType;

/// A Graphic Control Extension as giflib reads it.
typedef struct GraphicsControlBlock {
    int DisposalMode;
    bool UserInputFlag;
    int DelayTime;
    int TransparentColor;  // -1 when there is none
} GraphicsControlBlock;

/// Extension labels.
#define PRELOAD_GIF_GRAPHICS_EXTENSION 0xF9
#define PRELOAD_GIF_APPLICATION_EXTENSION 0xFF

/// giflib's error codes (D_GIF_ERR_...).
#define PRELOAD_D_GIF_ERR_READ_FAILED 102
#define PRELOAD_D_GIF_ERR_NOT_GIF_FILE 103
#define PRELOAD_D_GIF_ERR_NO_SCRN_DSCR 104
#define PRELOAD_D_GIF_ERR_NO_IMAG_DSCR 105
#define PRELOAD_D_GIF_ERR_WRONG_RECORD 107
#define PRELOAD_D_GIF_ERR_DATA_TOO_BIG 108
#define PRELOAD_D_GIF_ERR_NOT_ENOUGH_MEM 109
#define PRELOAD_D_GIF_ERR_IMAGE_DEFECT 112
#define PRELOAD_D_GIF_ERR_EOF_TOO_SOON 113

/// int (*InputFunc)(GifFileType *, GifByteType *, int): giflib's reader callback.
typedef int (*PreloadGifInputFunc)(GifFileType *, GifByteType *, int);
/// GifFileType *DGifOpen(void *userPtr, InputFunc readFunc, int *Error)
typedef GifFileType *(*PreloadDGifOpen)(void *, PreloadGifInputFunc, int *);
/// int DGifCloseFile(GifFileType *, int *ErrorCode)
typedef int (*PreloadDGifCloseFile)(GifFileType *, int *);
/// int DGifGetRecordType(GifFileType *, GifRecordType *)
typedef int (*PreloadDGifGetRecordType)(GifFileType *, GifRecordType *);
/// int DGifGetImageDesc(GifFileType *)
typedef int (*PreloadDGifGetImageDesc)(GifFileType *);
/// int DGifGetLine(GifFileType *, GifPixelType *, int)
typedef int (*PreloadDGifGetLine)(GifFileType *, GifPixelType *, int);
/// int DGifGetExtension(GifFileType *, int *code, GifByteType **block)
typedef int (*PreloadDGifGetExtension)(GifFileType *, int *, GifByteType **);
/// int DGifGetExtensionNext(GifFileType *, GifByteType **block)
typedef int (*PreloadDGifGetExtensionNext)(GifFileType *, GifByteType **);
/// int DGifGetCode(GifFileType *, int *codeSize, GifByteType **block)
typedef int (*PreloadDGifGetCode)(GifFileType *, int *, GifByteType **);
/// int DGifGetCodeNext(GifFileType *, GifByteType **block)
typedef int (*PreloadDGifGetCodeNext)(GifFileType *, GifByteType **);
/// int DGifExtensionToGCB(size_t length, const GifByteType *extension, GraphicsControlBlock *)
typedef int (*PreloadDGifExtensionToGCB)(size_t, const GifByteType *, GraphicsControlBlock *);
/// const char *GifErrorString(int ErrorCode)
typedef const char *(*PreloadGifErrorString)(int);

/// Bytes in memory that giflib reads through preload_gif_read (the GifFileType's UserData).
typedef struct PreloadGIFMemory {
    const uint8_t *bytes;
    size_t count;
    size_t offset;
} PreloadGIFMemory;

/// giflib's input callback over a PreloadGIFMemory: copies up to `length` bytes and returns how
/// many it copied (fewer at the end, which giflib reports as D_GIF_ERR_READ_FAILED).
int preload_gif_read(GifFileType *gif, GifByteType *buffer, int length);

#endif
