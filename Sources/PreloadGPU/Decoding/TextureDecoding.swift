import Preload

extension RGBAImage {
    /// One level of `texture` as RGBA8, whatever its format: an RGBA8 level copied, an RGBA16
    /// level rounded to 8 bits, blocks decoded (BC1-BC5 and BC7 by ``BlockDecoder``, ASTC by
    /// ``ASTCDecoder`` in the texture's colour space). How a tool shows a GPU texture; a game
    /// uploads the blocks as they are.
    /// - Throws: ``BlockDecodingError`` or ``ASTCError`` for blocks that do not decode,
    ///   `MissingSystemLibrary` when ASTC's library is not installed.
    public init(decoding texture: Texture, level number: Int = 0) throws {
        precondition(number >= 0 && number < texture.mipLevelCount, "RGBAImage(decoding:level:): no level \(number)")
        let level = texture.levels[number]
        let bytes = Array(texture.pixels[level.offset..<level.offset + level.byteCount])
        switch texture.pixelFormat {
        case .rgba8:
            self.init(width: level.width, height: level.height, pixels: bytes)
        case .rgba16:
            let pixels = bytes.withUnsafeBytes { raw in
                (0..<level.width * level.height * 4).map { sample in
                    UInt8((UInt32(raw.loadUnaligned(fromByteOffset: sample * 2, as: UInt16.self)) * 255 + 32767) / 65535)
                }
            }
            self.init(width: level.width, height: level.height, pixels: pixels)
        case .astc4x4, .astc5x5, .astc6x6, .astc8x8:
            self = try ASTCDecoder(blockSize: ASTCBlockSize(texture.pixelFormat)!, colorSpace: texture.colorSpace)
                .decode(bytes, width: level.width, height: level.height)
        case .bc1, .bc3, .bc4, .bc5, .bc7:
            self = try BlockDecoder.decode(bytes, format: texture.pixelFormat, width: level.width, height: level.height)
        }
    }
}
