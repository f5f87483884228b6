// The system libpng (found with pkg-config `libpng`). Only CPreloadPNG includes it directly:
// every libpng call must run inside that shim's setjmp frame.
#include <png.h>
