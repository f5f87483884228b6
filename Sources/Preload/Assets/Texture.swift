/// The layout of a texture's pixels.
public enum PixelFormat: String, Hashable, Sendable, CustomStringConvertible {
    /// Red, green, blue, alpha; one byte each.
    case rgba8
    /// Red, green, blue, alpha; one `UInt16` each, in the host's byte order.
    case rgba16

    /// Bytes one pixel takes.
    public var bytesPerPixel: Int { self == .rgba8 ? 4 : 8 }

    public var description: String { rawValue }
}

/// How colour relates to alpha in a texture's pixels.
public enum AlphaMode: String, Hashable, Sendable {
    /// Colour samples are stored as they are, independent of alpha (PNG's own convention).
    case straight
    /// Colour samples are already multiplied by alpha (what most GPU blending wants).
    case premultiplied
}

/// A decoded image: tightly packed rows, top to bottom, no padding between rows.
///
/// Pixels are written once by the decoder, into pooled memory when large (``AssetBytes``);
/// copies of a `Texture` share them.
public struct Texture: Asset, Hashable {
    // 32-bit sizes keep the struct within an existential's inline buffer (three words), so an
    // `any Asset` holding a texture needs no extra heap box.
    private let storedWidth: Int32
    private let storedHeight: Int32
    /// Width in pixels.
    public var width: Int { Int(storedWidth) }
    /// Height in pixels.
    public var height: Int { Int(storedHeight) }
    /// How each pixel is stored: ``PixelFormat/rgba8`` (4 bytes) or ``PixelFormat/rgba16`` (8 bytes, native-endian samples).
    public let pixelFormat: PixelFormat
    /// Whether colour is straight or premultiplied by alpha.
    public let alphaMode: AlphaMode
    /// `height` rows of `bytesPerRow` bytes. For ``PixelFormat/rgba16`` each sample is a
    /// host-order `UInt16`; read them with ``sample16(x:y:channel:)`` or by rebinding memory.
    public let pixels: AssetBytes

    /// Wraps decoded pixels. `pixels.count` must be `width * height * pixelFormat.bytesPerPixel`.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, alphaMode: AlphaMode, pixels: AssetBytes) {
        precondition(width >= 0 && height >= 0 && width <= Int32.max && height <= Int32.max, "bad texture size")
        precondition(pixels.count == width * height * pixelFormat.bytesPerPixel, "pixel count mismatch")
        storedWidth = Int32(width)
        storedHeight = Int32(height)
        self.pixelFormat = pixelFormat
        self.alphaMode = alphaMode
        self.pixels = pixels
    }

    /// Wraps decoded pixels in an array, without copying them.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, alphaMode: AlphaMode, pixels: [UInt8]) {
        self.init(width: width, height: height, pixelFormat: pixelFormat, alphaMode: alphaMode, pixels: AssetBytes(pixels))
    }

    public var kind: AssetKind { .texture }
    public var byteCount: Int { pixels.count }
    /// Bytes in one row of ``pixels`` (rows are tightly packed, top row first).
    public var bytesPerRow: Int { width * pixelFormat.bytesPerPixel }

    /// The RGBA8 pixel at (`x`, `y`), top-left origin. Only for ``PixelFormat/rgba8``.
    public func rgba8(x: Int, y: Int) -> SIMD4<UInt8> {
        precondition(pixelFormat == .rgba8, "rgba8(x:y:) on a \(pixelFormat) texture")
        let offset = y * bytesPerRow + x * 4
        return SIMD4(pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }

    /// One 16-bit sample (`channel` 0...3 = R, G, B, A) at (`x`, `y`). Only for
    /// ``PixelFormat/rgba16``.
    public func sample16(x: Int, y: Int, channel: Int) -> UInt16 {
        precondition(pixelFormat == .rgba16, "sample16(x:y:channel:) on a \(pixelFormat) texture")
        let offset = y * bytesPerRow + x * 8 + channel * 2
        return pixels.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self) }
    }
}
