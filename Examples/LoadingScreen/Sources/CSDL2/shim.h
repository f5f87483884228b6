// <SDL2/SDL.h> from the system's include folder (Linux: no pkg-config flags needed); <SDL.h>
// where pkg-config adds the SDL2 folder itself (Homebrew).
#if __has_include(<SDL2/SDL.h>)
#include <SDL2/SDL.h>
#else
#include <SDL.h>
#endif
