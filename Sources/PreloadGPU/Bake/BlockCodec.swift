import Preload

/// One format's encoder and decoder, as a GPU bake uses them: RGBA8 levels in, blocks out, and
/// level 0's blocks decoded again to measure them. Made once per format, colour space and alpha
/// mode (``Codecs``) and shared by every thread of the bake (astcenc's contexts are worth
/// keeping: building one takes milliseconds).
final class BlockCodec: Sendable {
    let format: PixelFormat
    private let encodeLevel: @Sendable (RGBAImage) throws -> [UInt8]
    private let decodeLevel: @Sendable ([UInt8], Int, Int) throws -> RGBAImage

    private init(
        format: PixelFormat, encode: @escaping @Sendable (RGBAImage) throws -> [UInt8],
        decode: @escaping @Sendable ([UInt8], Int, Int) throws -> RGBAImage
    ) {
        self.format = format
        encodeLevel = encode
        decodeLevel = decode
    }

    /// Why a format cannot be baked.
    struct Unsupported: Error, CustomStringConvertible {
        var format: PixelFormat
        var description: String { "\(format): no encoder bakes this format" }
    }

    /// The codec for `key`.
    /// - Throws: `MissingSystemLibrary` when the format's library is not installed, the
    ///   encoder's error when it refuses the configuration, ``Unsupported`` for RGBA16.
    static func make(_ key: Key) throws -> BlockCodec {
        // Colour is not weighted by alpha: a straight-alpha texture filtered bilinearly shows
        // the colour of its transparent pixels at the edges of visible ones, so that colour must
        // stay the source's (a premultiplied texture's colour is weighted already).
        let weighted = false
        switch key.format {
        case .rgba8:
            return BlockCodec(format: .rgba8, encode: { $0.pixels }, decode: { RGBAImage(width: $1, height: $2, pixels: $0) })
        case .astc4x4, .astc5x5, .astc6x6, .astc8x8:
            let blockSize = ASTCBlockSize(key.format)!
            let encoder = try ASTCEncoder(
                blockSize: blockSize, quality: key.quality, colorSpace: key.colorSpace, weightsColorByAlpha: weighted, threadCount: key.threads)
            let decoder = try ASTCDecoder(blockSize: blockSize, colorSpace: key.colorSpace)
            return BlockCodec(
                format: key.format, encode: { try encoder.encode($0) }, decode: { try decoder.decode($0, width: $1, height: $2) })
        case .bc1, .bc3, .bc4, .bc5:
            let encoder = try DXTEncoder(format: DXTEncoder.Format(rawValue: key.format.rawValue)!, threadCount: key.threads)
            let format = key.format
            return BlockCodec(
                format: format, encode: { encoder.encode($0) },
                decode: { try BlockDecoder.decode($0, format: format, width: $1, height: $2) })
        case .bc7:
            let encoder = BC7Encoder(options: .init(quality: key.quality, weightsColorByAlpha: weighted, threads: key.threads))
            return BlockCodec(
                format: .bc7, encode: { encoder.encode($0) }, decode: { try BlockDecoder.decode($0, format: .bc7, width: $1, height: $2) })
        case .rgba16:
            throw Unsupported(format: key.format)
        }
    }

    func encode(_ level: RGBAImage) throws -> [UInt8] { try encodeLevel(level) }

    func decode(_ blocks: [UInt8], width: Int, height: Int) throws -> RGBAImage { try decodeLevel(blocks, width, height) }

    /// What a codec is made for.
    struct Key: Hashable, Sendable {
        var format: PixelFormat
        var quality: EncoderQuality
        var colorSpace: ColorSpace
        var alphaMode: AlphaMode
        /// Threads that encode each image.
        var threads: Int
    }

    /// The codecs a bake has made, by key: each made once, on first use.
    final class Codecs: Sendable {
        private let made = PreloadMutex([Key: Result<BlockCodec, any Error>]())

        func codec(for key: Key) throws -> BlockCodec {
            try made.withLock { made in
                if let known = made[key] { return known }
                let result = Result { try BlockCodec.make(key) }
                made[key] = result
                return result
            }.get()
        }
    }
}
