import Preload
import PreloadGPU
import Testing

@Suite struct KTX2RoundTripTests {
    /// Every format, both colour spaces, both alpha modes, one level and a full chain, stored
    /// as they are and with Zstandard: the file reads back to the same texture, and its level
    /// index, read here without the reader, puts each level where the specification says.
    @Test(arguments: PixelFormat.allCases, KTX2Supercompression.allCases)
    func everyFormatReadsBackAsWritten(_ format: PixelFormat, _ supercompression: KTX2Supercompression) throws {
        for colorSpace in [ColorSpace.sRGB, .linear] {
            for alphaMode in [AlphaMode.straight, .premultiplied] {
                for mipLevelCount in [1, Texture.fullMipLevelCount(width: 13, height: 7)] {
                    let texture = KTX2Fixtures.texture(format, colorSpace: colorSpace, alphaMode: alphaMode, mipLevelCount: mipLevelCount)
                    let bytes = try KTX2File(texture: texture, supercompression: supercompression).encoded(zstdLevel: 3)
                    let read = try KTX2File(decoding: bytes)
                    #expect(read.texture == texture, "\(format) \(colorSpace) \(alphaMode) \(mipLevelCount) levels \(supercompression)")
                    #expect(read.supercompression == supercompression)
                    #expect(read.keyValues["KTXorientation"] == Array("rd".utf8) + [0])
                    #expect(read.keyValues["KTXwriter"] == Array(KTX2File.defaultWriter.utf8) + [0])
                    try checkLayout(bytes, of: texture, supercompression: supercompression)
                }
            }
        }
    }

    /// The header and level index of `bytes`, read by hand: the header's numbers, levels
    /// listed largest first and stored smallest first, each on its alignment, uncompressed
    /// levels holding the texture's bytes, the last level ending the file.
    private func checkLayout(_ bytes: [UInt8], of texture: Texture, supercompression: KTX2Supercompression) throws {
        let format = texture.pixelFormat
        #expect(Array(bytes.prefix(12)) == KTX2File.identifier)
        #expect(KTX2Fixtures.u32(bytes, 12) == format.vulkanFormat(colorSpace: texture.colorSpace))
        #expect(KTX2Fixtures.u32(bytes, 16) == (format == .rgba16 ? 2 : 1))
        #expect(KTX2Fixtures.u32(bytes, 20) == 13 && KTX2Fixtures.u32(bytes, 24) == 7)
        #expect(KTX2Fixtures.u32(bytes, 28) == 0 && KTX2Fixtures.u32(bytes, 32) == 0 && KTX2Fixtures.u32(bytes, 36) == 1)
        #expect(KTX2Fixtures.u32(bytes, 40) == UInt32(texture.mipLevelCount))
        #expect(KTX2Fixtures.u32(bytes, 44) == supercompression.rawValue)
        #expect(KTX2Fixtures.u32(bytes, 48) == UInt32(80 + 24 * texture.mipLevelCount))
        let alignment = supercompression == .none ? (format.bytesPerBlock == 4 ? 4 : format.bytesPerBlock) : 1
        var previousOffset = UInt64(bytes.count) + 1
        for (index, level) in texture.levels.enumerated() {
            let entry = 80 + 24 * index
            let offset = KTX2Fixtures.u64(bytes, entry), length = KTX2Fixtures.u64(bytes, entry + 8)
            #expect(KTX2Fixtures.u64(bytes, entry + 16) == UInt64(level.byteCount))
            #expect(offset % UInt64(alignment) == 0)
            #expect(offset + length <= previousOffset, "level \(index) is stored after the larger level \(index - 1)")
            if index == 0 { #expect(offset + length == UInt64(bytes.count)) }
            previousOffset = offset
            if supercompression == .none {
                #expect(length == UInt64(level.byteCount))
                let stored = Array(bytes[Int(offset)..<Int(offset + length)])
                #expect(stored == texture.pixels.withUnsafeBytes { Array($0[level.offset..<level.offset + level.byteCount]) })
            }
        }
    }

    @Test func zstdShrinksARepetitiveLevelAndRecordsTheInflatedLength() throws {
        let texture = Texture(width: 64, height: 64, pixelFormat: .rgba8, alphaMode: .straight, pixels: [UInt8](repeating: 7, count: 64 * 64 * 4))
        let plain = try KTX2File(texture: texture).encoded()
        let packed = try KTX2File(texture: texture, supercompression: .zstd).encoded()
        #expect(packed.count < plain.count / 10)
        #expect(KTX2Fixtures.u64(packed, 80 + 8) < 64 * 64 * 4)
        #expect(KTX2Fixtures.u64(packed, 80 + 16) == 64 * 64 * 4)
        #expect(try KTX2File(decoding: packed).texture == texture)
    }

    @Test func keyValuesOfTheCallerAreKeptSortedBesideTheWritersOwn() throws {
        let file = KTX2File(
            texture: KTX2Fixtures.texture(.bc1, width: 4, height: 4),
            keyValues: ["zeta": [1, 2, 3], "KTXwriter": Array("bake 1\0".utf8), "alpha": []])
        let bytes = try file.encoded()
        let read = try KTX2File(decoding: bytes)
        #expect(read.keyValues == ["alpha": [], "zeta": [1, 2, 3], "KTXwriter": Array("bake 1\0".utf8), "KTXorientation": Array("rd\0".utf8)])
        // Sorted by code point: upper-case "KTX..." before lower-case keys.
        let text = String(decoding: bytes, as: UTF8.self)
        let order = ["KTXorientation", "KTXwriter", "alpha", "zeta"].map { text.range(of: $0)!.lowerBound }
        #expect(order == order.sorted())
    }

    @Test func formatsWithoutAnSRGBVariantKeepTheirColourSpaceInTheTransferFunction() throws {
        for format in [PixelFormat.rgba16, .bc4, .bc5] {
            let texture = KTX2Fixtures.texture(format, width: 4, height: 4, colorSpace: .sRGB)
            let bytes = try KTX2File(texture: texture).encoded()
            #expect(KTX2Fixtures.u32(bytes, 12) == format.vulkanFormat(colorSpace: .linear))
            #expect(try KTX2File(decoding: bytes).texture.colorSpace == .sRGB)
        }
    }
}
