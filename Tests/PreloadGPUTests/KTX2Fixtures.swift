import Preload
import PreloadTestSupport

/// Textures and files the KTX2 tests write and read.
enum KTX2Fixtures {
    /// A `width` x `height` texture of `format` whose bytes are random (seeded by its shape),
    /// with `mipLevelCount` levels: the writer and reader treat block bytes as opaque.
    static func texture(
        _ format: PixelFormat, width: Int = 13, height: Int = 7, colorSpace: ColorSpace = .sRGB, alphaMode: AlphaMode = .straight,
        mipLevelCount: Int = 1
    ) -> Texture {
        let count = Texture.byteCount(width: width, height: height, pixelFormat: format, mipLevelCount: mipLevelCount)
        var random = SeededRandom(seed: UInt64(width * 1000 + height * 10 + mipLevelCount) &+ UInt64(format.bytesPerBlock << 20))
        let pixels = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        return Texture(
            width: width, height: height, pixelFormat: format, alphaMode: alphaMode, colorSpace: colorSpace, mipLevelCount: mipLevelCount,
            pixels: pixels)
    }

    /// The little-endian `UInt32` at `offset` of `bytes`.
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << ($1 * 8) }
    }

    /// The little-endian `UInt64` at `offset` of `bytes`.
    static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << ($1 * 8) }
    }

    /// `bytes` with the little-endian `value` written at `offset`.
    static func setting(_ bytes: [UInt8], _ offset: Int, to value: UInt32) -> [UInt8] {
        var changed = bytes
        for index in 0..<4 { changed[offset + index] = UInt8(truncatingIfNeeded: value >> (index * 8)) }
        return changed
    }

    /// `bytes` with the little-endian 64-bit `value` written at `offset`.
    static func setting64(_ bytes: [UInt8], _ offset: Int, to value: UInt64) -> [UInt8] {
        var changed = bytes
        for index in 0..<8 { changed[offset + index] = UInt8(truncatingIfNeeded: value >> (index * 8)) }
        return changed
    }
}
