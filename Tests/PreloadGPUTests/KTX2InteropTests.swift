import Preload
import PreloadGPU
import Testing

/// Files made by Khronos' own tool (`ktx create`, KTX-Software v5.0.0-rc2), kept here as bytes:
/// the reader takes what another writer made, not only what its own writer does.
@Suite struct KTX2InteropTests {
    /// `ktx create --format R8G8B8A8_SRGB --assign-tf srgb --generate-mipmap --zstd 5` of a
    /// 4 x 4 PNG whose pixel i is (16 i, 255 - 16 i, 37 i mod 256, 128 when i mod 3 = 0 else 255).
    static let rgba8Zstd = bytes(
        "ab4b5458203230bb0d0a1a0a2b0000000100000004000000040000000000000000000000010000000300000002000000",
        "980000005c000000f40000005c0000000000000000000000000000000000000076010000000000004900000000000000",
        "40000000000000005d010000000000001900000000000000100000000000000050010000000000000d00000000000000",
        "04000000000000005c000000000000000200580001010200000000000400000000000000000007000000000000000000",
        "ff000000080007010000000000000000ff000000100007020000000000000000ff0000001800071f0000000000000000",
        "ff000000380000004b5458777269746572006b7478206372656174652076352e302e302d7263327e33202f206c69626b",
        "74782076352e302e302d7263327e32001b0000004b54587772697465725363506172616d73002d2d7a73746420350000",
        "28b52ffd2004210000919e82ce28b52ffd20108100001eda71d944b989ceab54a5cecb3078d928b52ffd204001020000",
        "ff008010ef25ff20df4aff30cf6f8040bf94ff50afb9ff609fde80708f03ff807f28ff906f4d80a05f72ffb04f97ffc0",
        "3fbc80d02fe1ffe01f06fff00f2b80")

    /// `ktx create --format ASTC_4x4_SRGB_BLOCK --assign-tf srgb` of an 8 x 8 PNG.
    static let astc4x4 = bytes(
        "ab4b5458203230bb0d0a1a0a9e0000000100000008000000080000000000000000000000010000000100000000000000",
        "680000002c000000940000003c00000000000000000000000000000000000000d0000000000000004000000000000000",
        "40000000000000002c0000000000000002002800a201020003030000100000000000000000007f000000000000000000",
        "ffffffff380000004b5458777269746572006b7478206372656174652076352e302e302d7263327e33202f206c69626b",
        "74782076352e302e302d7263327e32004204013000fccf4f7f3b5d196e2a4c0842043f1300fccf4f7f3b5d196e2a4c08",
        "42048131fff4cf4f7f3b5d196e2a4c084204bf13bff4cf4f7f3b5d196e2a4c08")

    static func bytes(_ hex: String...) -> [UInt8] {
        let digits = Array(hex.joined().utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    @Test func aZstdRGBA8FileWithMipmapsFromKTXCreateReads() throws {
        let file = try KTX2File(decoding: Self.rgba8Zstd)
        #expect(file.supercompression == .zstd)
        let texture = file.texture
        #expect(texture.pixelFormat == .rgba8 && texture.colorSpace == .sRGB && texture.alphaMode == .straight)
        #expect(texture.width == 4 && texture.height == 4 && texture.mipLevelCount == 3)
        let level0: [UInt8] = (0..<16).flatMap { (i: Int) -> [UInt8] in
            [UInt8(i * 16), UInt8(255 - i * 16), UInt8(i * 37 % 256), i % 3 == 0 ? 128 : 255]
        }
        #expect(texture.pixels.withUnsafeBytes { Array($0.prefix(64)) } == level0)
        #expect(file.keyValues["KTXwriterScParams"] == Array("--zstd 5\0".utf8))
        #expect(file.keyValues["KTXorientation"] == nil)
    }

    @Test func anASTCFileFromKTXCreateReadsAndWritesBackTheSameLevel() throws {
        let file = try KTX2File(decoding: Self.astc4x4)
        let texture = file.texture
        #expect(texture.pixelFormat == .astc4x4 && texture.colorSpace == .sRGB && texture.mipLevelCount == 1)
        #expect(texture.width == 8 && texture.height == 8)
        #expect(texture.pixels.withUnsafeBytes { Array($0) } == Array(Self.astc4x4.suffix(64)))
        // Written again: the same DFD bytes as Khronos' tool wrote (44 bytes at 0x68).
        let rewritten = try file.encoded()
        let dfdOffset = Int(KTX2Fixtures.u32(rewritten, 48))
        #expect(rewritten[dfdOffset..<dfdOffset + 44] == Self.astc4x4[0x68..<0x68 + 44])
        #expect(try KTX2File(decoding: rewritten).texture == texture)
    }
}
