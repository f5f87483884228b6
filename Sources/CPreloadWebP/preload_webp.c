// The sizes of the structures declared in preload_webp.h, as libwebp 1.2.4's own headers give
// them on 64-bit Linux (measured with sizeof/offsetof against <webp/decode.h>): a change to the
// declarations that moves a field fails the build here rather than at run time.
#include "preload_webp.h"

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(WebPBitstreamFeatures) == 40, "WebPBitstreamFeatures differs from libwebp's");
_Static_assert(sizeof(WebPRGBABuffer) == 24, "WebPRGBABuffer differs from libwebp's");
_Static_assert(sizeof(WebPYUVABuffer) == 80, "WebPYUVABuffer differs from libwebp's");
_Static_assert(sizeof(WebPDecBuffer) == 120, "WebPDecBuffer differs from libwebp's");
_Static_assert(offsetof(WebPDecBuffer, u) == 16, "WebPDecBuffer.u differs from libwebp's");
_Static_assert(offsetof(WebPDecBuffer, pad) == 96, "WebPDecBuffer.pad differs from libwebp's");
_Static_assert(offsetof(WebPDecBuffer, private_memory) == 112, "WebPDecBuffer.private_memory differs from libwebp's");
#endif
