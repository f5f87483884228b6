import Preload

extension RGBAImage {
    /// One level of `texture` as RGBA8, whatever its format: an RGBA8 level copied, an RGBA16
    /// level's high bytes (what loading the PNG as 8-bit gives: libpng's `png_set_strip_16`),
    /// blocks decoded (BC1-BC5 and BC7 by ``BlockDecoder``, ASTC by ``ASTCDecoder`` in the
    /// texture's colour space). How a tool shows a GPU texture; a game uploads the blocks as they
    /// are.
    /// - Throws: ``BlockDecodingError`` or ``ASTCError`` for blocks that do not decode,
    ///   `MissingSystemLibrary` when ASTC's library is not installed.
    public init(decoding texture: Texture, level number: Int = 0) throws {
        precondition(number >= 0 && number < texture.mipLevelCount, "RGBAImage(decoding:level:): no level \(number)")
        let level = texture.levels[number]
        switch texture.pixelFormat {
        case .astc4x4, .astc5x5, .astc6x6, .astc8x8:
            self = try ASTCDecoder(blockSize: ASTCBlockSize(texture.pixelFormat)!, colorSpace: texture.colorSpace)
                .decode(Array(texture.pixels[level.offset..<level.offset + level.byteCount]), width: level.width, height: level.height)
        case .rgba8, .rgba16, .bc1, .bc3, .bc4, .bc5, .bc7:
            // Read in place: no copy of the level before it is converted.
            self = try texture.pixels.withUnsafeBytes { all in
                let bytes = UnsafeRawBufferPointer(rebasing: all[level.offset..<level.offset + level.byteCount])
                switch texture.pixelFormat {
                case .rgba8:
                    return RGBAImage(width: level.width, height: level.height, pixels: Array(bytes))
                case .rgba16:
                    let pixels = (0..<level.width * level.height * 4).map { sample in
                        UInt8(bytes.loadUnaligned(fromByteOffset: sample * 2, as: UInt16.self) >> 8)
                    }
                    return RGBAImage(width: level.width, height: level.height, pixels: pixels)
                default:
                    return try BlockDecoder.decode(bytes, format: texture.pixelFormat, width: level.width, height: level.height)
                }
            }
        }
    }
}
