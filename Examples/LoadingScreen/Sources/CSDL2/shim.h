// <SDL2/SDL.h> from the system's include folder (Linux: no pkg-config flags needed); <SDL.h>
// where pkg-config adds the SDL2 folder itself (Homebrew).
#if __has_include(<SDL2/SDL.h>)
#include <SDL2/SDL.h>
#elif __has_include(<SDL.h>)
#include <SDL.h>
#else
#error "SDL2's headers are missing: install libsdl2-dev (apt; .ci/system-packages install example) or sdl2 (brew)"
#endif
