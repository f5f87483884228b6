// FreeType 2 (Debian's libfreetype-dev: /usr/include/freetype2, found with pkg-config), linked by
// PreloadTrueType alone. Besides the library's own headers: the flags that FreeType spells as
// function-like macros (Swift imports none of those), and each error's name and message from
// FreeType's own list (FT_Error_String is NULL when the library was built without
// FT_CONFIG_OPTION_ERROR_STRINGS, as Debian's is).
#include <ft2build.h>
#include FT_FREETYPE_H

/// FT_LOAD_TARGET_NORMAL, FT_LOAD_TARGET_LIGHT and FT_LOAD_TARGET_MONO.
static const FT_Int32 preload_ft_load_target_normal = FT_LOAD_TARGET_NORMAL;
static const FT_Int32 preload_ft_load_target_light = FT_LOAD_TARGET_LIGHT;
static const FT_Int32 preload_ft_load_target_mono = FT_LOAD_TARGET_MONO;

#define PRELOAD_FT_STRING_(text) #text
#define PRELOAD_FT_STRING(text) PRELOAD_FT_STRING_(text)

/// The identifier of FreeType's error `code` ("FT_Err_Unknown_File_Format"), or NULL for a code
/// FreeType does not list. Module bits (FT_CONFIG_OPTION_USE_MODULE_ERRORS) are ignored.
static inline const char *preload_ft_error_name(int code) {
    switch (code & 0xFF) {
#undef FTERRORS_H_
#define FT_ERROR_START_LIST
#define FT_ERRORDEF(e, v, s) case (v) & 0xFF: return PRELOAD_FT_STRING(e);
#define FT_ERROR_END_LIST
#include FT_ERRORS_H
    }
    return 0;
}

/// FreeType's words for error `code` ("unknown file format"), or NULL for a code it does not list.
static inline const char *preload_ft_error_message(int code) {
    switch (code & 0xFF) {
#undef FTERRORS_H_
#define FT_ERROR_START_LIST
#define FT_ERRORDEF(e, v, s) case (v) & 0xFF: return s;
#define FT_ERROR_END_LIST
#include FT_ERRORS_H
    }
    return 0;
}
