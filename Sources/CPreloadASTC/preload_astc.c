// The sizes and offsets of the structures declared in preload_astc.h, as astcenc 4.2.0's own
// astcenc.h gives them on 64-bit Linux (measured with sizeof/offsetof against that header): a
// change to the declarations that moves a field fails the build here rather than at run time.
#include "preload_astc.h"

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(astcenc_profile) == 4, "astcenc_profile differs from astcenc's");
_Static_assert(sizeof(astcenc_error) == 4, "astcenc_error differs from astcenc's");
_Static_assert(sizeof(astcenc_swizzle) == 16, "astcenc_swizzle differs from astcenc's");
_Static_assert(sizeof(astcenc_config) == 108, "astcenc_config differs from astcenc's");
_Static_assert(offsetof(astcenc_config, a_scale_radius) == 36, "astcenc_config.a_scale_radius differs from astcenc's");
_Static_assert(offsetof(astcenc_config, tune_db_limit) == 84, "astcenc_config.tune_db_limit differs from astcenc's");
_Static_assert(
    offsetof(astcenc_config, tune_2_plane_early_out_limit_correlation) == 104,
    "astcenc_config.tune_2_plane_early_out_limit_correlation differs from astcenc's");
_Static_assert(sizeof(astcenc_image) == 24, "astcenc_image differs from astcenc's");
_Static_assert(offsetof(astcenc_image, data) == 16, "astcenc_image.data differs from astcenc's");
#endif
