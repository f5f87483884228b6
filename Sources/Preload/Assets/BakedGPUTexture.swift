/// How a baked pack holds a texture in a GPU format or with a mipmap chain (kind `gpuTexture`): a header
/// naming the format (Preload's code, Vulkan's and OpenGL's numbers, the block size), a level
/// table, then every level's bytes, level 0 first, ready to upload. The texture loads as a view of
/// the mapped pack: no decode, nothing copied. The layout is in docs/bake-format.md ("GPU texture
/// entries").
public enum BakedGPUTexture {
    /// The header's first four bytes.
    static let magic = Array("PGPU".utf8)
    /// The header's size; the level table follows it.
    static let headerSize = 64
    /// Bytes per level in the level table: offset and length, 64 bits each.
    static let levelRecordSize = 16

    /// The format's code in the header (stable: never renumbered).
    static let codes: [PixelFormat: UInt8] = [
        .rgba8: 1, .rgba16: 2, .bc1: 3, .bc3: 4, .bc4: 5, .bc5: 6, .bc7: 7, .astc4x4: 8, .astc5x5: 9, .astc6x6: 10, .astc8x8: 11,
    ]

    /// Where the first level starts in an entry with `levels` levels: after the header and the
    /// level table, at a multiple of 64 (so every level of a block format stays block-aligned and
    /// level 0 is as aligned as the entry).
    static func levelsStart(levels: Int) -> Int { (headerSize + levels * levelRecordSize + 63) / 64 * 64 }

    /// The entry's bytes for `texture`; `quality` is the PSNR its bake measured against the
    /// source (dB; `.infinity` when lossless), kept for reports.
    public static func encode(_ texture: Texture, quality: Double?) -> AssetBytes {
        let levels = texture.levels
        var header = magic
        header += [1, codes[texture.pixelFormat]!, texture.colorSpace == .sRGB ? 0 : 1, UInt8(levels.count)]
        header.appendLittleEndian(texture.pixelFormat.vulkanFormat(colorSpace: texture.colorSpace))
        header.appendLittleEndian(texture.pixelFormat.glInternalFormat(colorSpace: texture.colorSpace))
        header += [UInt8(texture.pixelFormat.blockWidth), UInt8(texture.pixelFormat.blockHeight), 1, 0]
        header.appendLittleEndian(UInt32(texture.pixelFormat.bytesPerBlock))
        header.appendLittleEndian(centibels(quality))
        header.appendLittleEndian(UInt32(0))
        let start = levelsStart(levels: levels.count)
        header.appendLittleEndian(UInt64(start))
        header += [UInt8](repeating: 0, count: headerSize - header.count)
        for level in levels {
            header.appendLittleEndian(UInt64(level.offset))
            header.appendLittleEndian(UInt64(level.byteCount))
        }
        header += [UInt8](repeating: 0, count: start - header.count)
        let total = start + texture.pixels.count
        return AssetBytes(unsafeUninitializedCapacity: total) { buffer, count in
            header.withUnsafeBytes { buffer.copyMemory(from: $0) }
            texture.pixels.withUnsafeBytes { (buffer.baseAddress! + start).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            count = total
        }
    }

    /// The quality as the header keeps it: hundredths of a decibel, `UInt32.max` for lossless,
    /// 0 when not measured.
    private static func centibels(_ quality: Double?) -> UInt32 {
        guard let quality else { return 0 }
        guard quality.isFinite else { return UInt32.max }
        return UInt32(max(1, min(Double(UInt32.max - 1), (quality * 100).rounded())))
    }

    /// What the header of a GPU texture entry says, checked against the record's size.
    struct Header {
        var format: PixelFormat
        var colorSpace: ColorSpace
        var levelCount: Int
        /// Where level 0 starts in the entry.
        var levelsStart: Int
        /// The PSNR the bake measured (dB), `.infinity` for lossless, `nil` if not measured.
        var quality: Double?
    }

    /// Reads and checks the header and level table of an entry (`bytes`, already checksummed) for
    /// a `width` × `height` texture: the format is known, its numbers are the ones Preload gives it,
    /// and each level is where and as long as the format's size rules put it.
    static func header(of bytes: UnsafeRawBufferPointer, width: Int, height: Int, malformed: (String) -> any Error) throws -> Header {
        guard bytes.count >= headerSize else { throw malformed("a GPU texture entry of \(bytes.count) bytes, shorter than its header") }
        guard Array(bytes[0..<4]) == magic, bytes[4] == 1 else { throw malformed("its GPU texture header does not read") }
        guard let format = codes.first(where: { $0.value == bytes[5] })?.key else {
            throw malformed("its GPU texture format code \(bytes[5]) is not one this version knows")
        }
        guard bytes[6] <= 1 else { throw malformed("its colour space code \(bytes[6]) is not one this version knows") }
        let colorSpace: ColorSpace = bytes[6] == 0 ? .sRGB : .linear
        let levelCount = Int(bytes[7])
        guard levelCount >= 1, levelCount <= Texture.fullMipLevelCount(width: width, height: height) else {
            throw malformed("\(levelCount) mipmap levels for a \(width)x\(height) texture")
        }
        guard bytes.littleEndian(at: 8, as: UInt32.self) == format.vulkanFormat(colorSpace: colorSpace),
            bytes.littleEndian(at: 12, as: UInt32.self) == format.glInternalFormat(colorSpace: colorSpace),
            Int(bytes[16]) == format.blockWidth, Int(bytes[17]) == format.blockHeight, bytes[18] == 1,
            Int(bytes.littleEndian(at: 20, as: UInt32.self)) == format.bytesPerBlock
        else { throw malformed("its Vulkan, OpenGL or block numbers are not those of \(format)") }
        let start = levelsStart(levels: levelCount)
        guard bytes.littleEndian(at: 32, as: UInt64.self) == UInt64(start), bytes.count >= start else {
            throw malformed("its level table does not fit the entry")
        }
        var offset = 0, levelWidth = width, levelHeight = height
        for level in 0..<levelCount {
            let record = headerSize + level * levelRecordSize
            guard let count = format.byteCount(width: levelWidth, height: levelHeight),
                bytes.littleEndian(at: record, as: UInt64.self) == UInt64(offset),
                bytes.littleEndian(at: record + 8, as: UInt64.self) == UInt64(count)
            else { throw malformed("level \(level) (\(levelWidth)x\(levelHeight) \(format)) is not where or as long as its format puts it") }
            offset += count
            levelWidth = max(1, levelWidth / 2)
            levelHeight = max(1, levelHeight / 2)
        }
        guard start + offset == bytes.count else {
            throw malformed("its \(levelCount) levels of \(format) take \(offset) bytes, and the entry holds \(bytes.count - start)")
        }
        let stored = bytes.littleEndian(at: 24, as: UInt32.self)
        let quality: Double? = stored == 0 ? nil : stored == UInt32.max ? .infinity : Double(stored) / 100
        return Header(format: format, colorSpace: colorSpace, levelCount: levelCount, levelsStart: start, quality: quality)
    }
}
