import Preload

/// One format's encoder and decoder, as a GPU bake uses them: RGBA8 levels in, blocks out, and
/// level 0's blocks decoded again to measure them.
struct BlockCodec {
    var format: PixelFormat
    var quality: GPUTextureBake.Quality
    var colorSpace: ColorSpace
    var alphaMode: AlphaMode

    /// Why a format cannot be baked.
    struct Unsupported: Error, CustomStringConvertible {
        var format: PixelFormat
        var description: String { "\(format): no encoder bakes this format" }
    }

    func encode(_ level: RGBAImage) throws -> [UInt8] {
        switch format {
        case .rgba8: return level.pixels
        default: throw Unsupported(format: format)
        }
    }

    func decode(_ blocks: [UInt8], width: Int, height: Int) throws -> RGBAImage {
        switch format {
        case .rgba8: return RGBAImage(width: width, height: height, pixels: blocks)
        default: throw Unsupported(format: format)
        }
    }
}
