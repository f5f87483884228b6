// The system zlib (found with pkg-config `zlib`): inflate/deflate streams and CRC-32 for the
// pack plugin and for tests that build PNG files byte by byte. zlib reports errors through
// return codes, so unlike libpng it needs no setjmp shim.
#include <zlib.h>
