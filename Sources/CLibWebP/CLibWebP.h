// libwebp: the decoder (one-call and incremental) and the demuxer (animated files' frames).
#include <webp/decode.h>
#include <webp/demux.h>
