import CPreloadPNG
import Preload

/// Encodes RGBA8 textures as PNG files with libpng (atlas pages, contact sheets).
public enum PNGEncoder {
    /// Why encoding failed.
    public struct EncodeError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, as libpng said it.
        public let description: String
    }

    /// The PNG bytes of `texture`, which must be `PixelFormat/rgba8`. `compressionLevel` is
    /// zlib's, 0 (store) to 9 (smallest).
    public static func encode(_ texture: Texture, compressionLevel: Int = 6) throws -> [UInt8] {
        guard texture.pixelFormat == .rgba8 else {
            throw EncodeError(description: "only RGBA8 textures can be encoded, not \(texture.pixelFormat)")
        }
        guard texture.width > 0, texture.height > 0 else { throw EncodeError(description: "an empty image cannot be a PNG") }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = texture.pixels.withUnsafeBufferPointer { pixels in
            preload_png_encode_rgba8(
                pixels.baseAddress, UInt32(texture.width), UInt32(texture.height), texture.bytesPerRow,
                Int32(compressionLevel), &output, &size, &message, message.count)
        }
        guard status == 0, let output else {
            throw EncodeError(
                description: "PNG encoding failed: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        defer { preload_png_free_encoded(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
