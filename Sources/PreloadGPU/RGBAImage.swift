import Preload

/// An RGBA8 image in memory, the input of the block encoders and the output of the block
/// decoders: `height` rows of `width` pixels, 4 bytes each (red, green, blue, alpha), tightly
/// packed, top row first.
public struct RGBAImage: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes.
    public var pixels: [UInt8]

    /// An image of `pixels`, which must hold `width * height * 4` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "RGBAImage: pixel count mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A copy of level 0 of an `PixelFormat.rgba8` texture's pixels.
    public init(_ texture: Texture) {
        precondition(texture.pixelFormat == .rgba8, "RGBAImage(_:) on a \(texture.pixelFormat) texture")
        let count = texture.width * texture.height * 4
        self.init(width: texture.width, height: texture.height, pixels: texture.pixels.withUnsafeBytes { Array($0.prefix(count)) })
    }
}
