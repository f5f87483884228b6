// The part of astcenc's ABI (Arm's ASTC encoder library) that PreloadGPU uses, declared here so
// that the package builds without astcenc's development headers: PreloadGPU opens
// libastcenc.so.3d (Debian's libastcenc3d, astcenc 4.2.0) at run time (Preload's SystemLibrary)
// and calls these functions through pointers.
//
// The types follow astcenc.h of astcenc 4.2.0 built without ASTCENC_DIAGNOSTICS (Debian's
// build): field for field, with the same sizes and offsets, checked against that header on
// 64-bit Linux; preload_astc.c asserts the sizes so that a change here fails the build. The
// library is C++ with C linkage for these functions (ASTCENC_PUBLIC is extern "C"), and its
// enumerations are 4-byte integers.
#ifndef PRELOAD_ASTC_H
#define PRELOAD_ASTC_H

#include <stddef.h>
#include <stdint.h>

/// A compression or decompression context (opaque).
typedef struct astcenc_context astcenc_context;

/// What every astcenc function returns.
typedef enum astcenc_error {
    ASTCENC_SUCCESS = 0,
    ASTCENC_ERR_OUT_OF_MEM,
    ASTCENC_ERR_BAD_CPU_FLOAT,
    ASTCENC_ERR_BAD_CPU_ISA,
    ASTCENC_ERR_BAD_PARAM,
    ASTCENC_ERR_BAD_BLOCK_SIZE,
    ASTCENC_ERR_BAD_PROFILE,
    ASTCENC_ERR_BAD_QUALITY,
    ASTCENC_ERR_BAD_SWIZZLE,
    ASTCENC_ERR_BAD_FLAGS,
    ASTCENC_ERR_BAD_CONTEXT,
    ASTCENC_ERR_NOT_IMPLEMENTED
} astcenc_error;

/// The colour profile: LDR sRGB, LDR linear, or the HDR ones.
typedef enum astcenc_profile {
    ASTCENC_PRF_LDR_SRGB = 0,
    ASTCENC_PRF_LDR,
    ASTCENC_PRF_HDR_RGB_LDR_A,
    ASTCENC_PRF_HDR
} astcenc_profile;

/// The quality presets (astcenc_config_init's `quality`, 0 to 100).
#define ASTCENC_PRE_FASTEST 0.0f
#define ASTCENC_PRE_FAST 10.0f
#define ASTCENC_PRE_MEDIUM 60.0f
#define ASTCENC_PRE_THOROUGH 98.0f
#define ASTCENC_PRE_VERYTHOROUGH 99.0f
#define ASTCENC_PRE_EXHAUSTIVE 100.0f

/// A source channel of a swizzle.
typedef enum astcenc_swz {
    ASTCENC_SWZ_R = 0,
    ASTCENC_SWZ_G = 1,
    ASTCENC_SWZ_B = 2,
    ASTCENC_SWZ_A = 3,
    ASTCENC_SWZ_0 = 4,
    ASTCENC_SWZ_1 = 5,
    ASTCENC_SWZ_Z = 6
} astcenc_swz;

/// Where each of the four channels comes from.
typedef struct astcenc_swizzle {
    astcenc_swz r;
    astcenc_swz g;
    astcenc_swz b;
    astcenc_swz a;
} astcenc_swizzle;

/// The type of an image's samples.
typedef enum astcenc_type {
    ASTCENC_TYPE_U8 = 0,
    ASTCENC_TYPE_F16 = 1,
    ASTCENC_TYPE_F32 = 2
} astcenc_type;

/// Configuration flags (astcenc_config_init's `flags`).
#define ASTCENC_FLG_MAP_NORMAL 0x01u
#define ASTCENC_FLG_MAP_MASK 0x02u
#define ASTCENC_FLG_USE_ALPHA_WEIGHT 0x04u
#define ASTCENC_FLG_USE_PERCEPTUAL 0x08u
#define ASTCENC_FLG_DECOMPRESS_ONLY 0x10u
#define ASTCENC_FLG_SELF_DECOMPRESS_ONLY 0x20u
#define ASTCENC_FLG_MAP_RGBM 0x40u

/// A context's configuration, filled by astcenc_config_init (the tuning fields by its preset).
typedef struct astcenc_config {
    astcenc_profile profile;
    unsigned int flags;
    unsigned int block_x;
    unsigned int block_y;
    unsigned int block_z;
    float cw_r_weight;
    float cw_g_weight;
    float cw_b_weight;
    float cw_a_weight;
    unsigned int a_scale_radius;
    float rgbm_m_scale;
    unsigned int tune_partition_count_limit;
    unsigned int tune_2partition_index_limit;
    unsigned int tune_3partition_index_limit;
    unsigned int tune_4partition_index_limit;
    unsigned int tune_block_mode_limit;
    unsigned int tune_refinement_limit;
    unsigned int tune_candidate_limit;
    unsigned int tune_2partitioning_candidate_limit;
    unsigned int tune_3partitioning_candidate_limit;
    unsigned int tune_4partitioning_candidate_limit;
    float tune_db_limit;
    float tune_mode0_mse_overshoot;
    float tune_refinement_mse_overshoot;
    float tune_2_partition_early_out_limit_factor;
    float tune_3_partition_early_out_limit_factor;
    float tune_2_plane_early_out_limit_correlation;
} astcenc_config;

/// An uncompressed image: `dim_z` slices of `dim_x * dim_y` RGBA texels, `data[z]` each.
typedef struct astcenc_image {
    unsigned int dim_x;
    unsigned int dim_y;
    unsigned int dim_z;
    astcenc_type data_type;
    void **data;
} astcenc_image;

/// astcenc_error astcenc_config_init(astcenc_profile, unsigned block_x, unsigned block_y,
/// unsigned block_z, float quality, unsigned flags, astcenc_config *config)
typedef astcenc_error (*PreloadASTCConfigInit)(
    astcenc_profile, unsigned int, unsigned int, unsigned int, float, unsigned int, astcenc_config *);
/// astcenc_error astcenc_context_alloc(const astcenc_config *, unsigned thread_count, astcenc_context **)
typedef astcenc_error (*PreloadASTCContextAlloc)(const astcenc_config *, unsigned int, astcenc_context **);
/// astcenc_error astcenc_compress_image(astcenc_context *, astcenc_image *, const astcenc_swizzle *,
/// uint8_t *data_out, size_t data_len, unsigned thread_index)
typedef astcenc_error (*PreloadASTCCompressImage)(
    astcenc_context *, astcenc_image *, const astcenc_swizzle *, uint8_t *, size_t, unsigned int);
/// astcenc_error astcenc_compress_reset(astcenc_context *)
typedef astcenc_error (*PreloadASTCCompressReset)(astcenc_context *);
/// astcenc_error astcenc_decompress_image(astcenc_context *, const uint8_t *data, size_t data_len,
/// astcenc_image *image_out, const astcenc_swizzle *, unsigned thread_index)
typedef astcenc_error (*PreloadASTCDecompressImage)(
    astcenc_context *, const uint8_t *, size_t, astcenc_image *, const astcenc_swizzle *, unsigned int);
/// astcenc_error astcenc_decompress_reset(astcenc_context *)
typedef astcenc_error (*PreloadASTCDecompressReset)(astcenc_context *);
/// void astcenc_context_free(astcenc_context *)
typedef void (*PreloadASTCContextFree)(astcenc_context *);
/// const char *astcenc_get_error_string(astcenc_error)
typedef const char *(*PreloadASTCGetErrorString)(astcenc_error);

#endif
