import Preload
import PreloadGPU
import PreloadKTX2
import PreloadPNG
import Testing

/// Khronos' own KTX2 files (the KTX-Software conformance suite's, Fixtures/README.md) load, and
/// their pixels are the ones Khronos' `ktx extract` gives.
@Suite struct KhronosFilesTests {
    /// The reference PNG `name`, decoded by the PNG plugin.
    func png(_ name: String, sixteenBit: Bool = false) throws -> Texture {
        try PNGDecoder.decode(KTX2Fixtures.bytes(name), options: PNGLoaderSettings(keepsSixteenBitSamples: sixteenBit))
    }

    @Test func anRGBA8FileHoldsThePixelsKTXExtractGives() throws {
        let texture = try KTX2Fixtures.texture(KTX2Fixtures.bytes("valid_R8G8B8A8_SRGB_2D.ktx2"))
        #expect(texture.width == 8 && texture.height == 8 && texture.mipLevelCount == 1)
        #expect(texture.pixelFormat == .rgba8 && texture.colorSpace == .sRGB && texture.alphaMode == .straight)
        #expect(KTX2Fixtures.pixels(texture) == KTX2Fixtures.pixels(try png("output_R8G8B8A8_SRGB_2D.png")))
    }

    @Test func everyMipmapLevelLoadsLevelZeroFirst() throws {
        let bytes = KTX2Fixtures.bytes("valid_R8G8B8A8_SRGB_2D_MIP.ktx2")
        let texture = try KTX2Fixtures.texture(bytes)
        #expect(texture.mipLevelCount == 4 && texture.levels.map(\.width) == [8, 4, 2, 1])
        // Each level is where the file's level index puts it (the file stores them smallest first).
        for (index, level) in texture.levels.enumerated() {
            let offset = Int(KTX2Fixtures.u64(bytes, 80 + 24 * index)), length = Int(KTX2Fixtures.u64(bytes, 88 + 24 * index))
            #expect(length == level.byteCount)
            #expect(Array(KTX2Fixtures.pixels(texture)[level.offset..<level.offset + level.byteCount]) == Array(bytes[offset..<offset + length]))
        }
        #expect(KTX2Fixtures.u64(bytes, 80) > KTX2Fixtures.u64(bytes, 80 + 24 * 3), "level 0 is stored last")
    }

    @Test func zstandardLevelsInflateToTheBytesKTXExtractGives() throws {
        let rgba = try KTX2Fixtures.texture(KTX2Fixtures.bytes("valid_R8G8B8A8_UNORM_2D_ZSTD_9.ktx2"))
        #expect(rgba.pixelFormat == .rgba8 && rgba.colorSpace == .linear)
        #expect(KTX2Fixtures.pixels(rgba) == KTX2Fixtures.bytes("output_R8G8B8A8_UNORM_2D_ZSTD_9.raw"))
        let astc = try KTX2Fixtures.texture(KTX2Fixtures.bytes("valid_ASTC_4x4_UNORM_BLOCK_2D_ZSTD_9.ktx2"))
        #expect(astc.pixelFormat == .astc4x4 && astc.colorSpace == .linear && astc.width == 8)
        #expect(KTX2Fixtures.pixels(astc) == KTX2Fixtures.bytes("output_ASTC_4x4_UNORM_BLOCK_2D_ZSTD_9.raw"))
    }

    @Test func aBC7FileHoldsItsBlocksAndDecodesToTheSamePicture() throws {
        let texture = try KTX2Fixtures.texture(KTX2Fixtures.bytes("output_R8G8B8A8_SRGB_2D_BLZE_to_bc7.ktx2"))
        #expect(texture.pixelFormat == .bc7 && texture.colorSpace == .sRGB && texture.width == 8 && texture.height == 8)
        #expect(KTX2Fixtures.pixels(texture) == KTX2Fixtures.bytes("output_R8G8B8A8_SRGB_2D_BLZE_to_bc7.raw"))
        // Khronos transcoded one ETC1S file to BC7 and to RGBA8: the BC7 blocks, decoded here,
        // show the RGBA8 picture.
        let decoded = try BlockDecoder.decode(KTX2Fixtures.pixels(texture), format: .bc7, width: 8, height: 8)
        let reference = RGBAImage(width: 8, height: 8, pixels: KTX2Fixtures.bytes("output_R8G8B8A8_SRGB_2D_BLZE_to_rgba8.raw"))
        let psnr = try ImageQuality.psnr(reference, decoded, over: .rgba)
        #expect(psnr > 40, "PSNR \(psnr) dB")
    }

    @Test(arguments: [("bc3", PixelFormat.bc3, ColorSpace.sRGB), ("bc4", .bc4, .linear), ("bc5", .bc5, .linear)])
    func otherBlockFormatsLoadWithTheirColourSpace(_ suffix: String, _ format: PixelFormat, _ colorSpace: ColorSpace) throws {
        let texture = try KTX2Fixtures.texture(KTX2Fixtures.bytes("output_R8G8B8A8_SRGB_2D_BLZE_to_\(suffix).ktx2"))
        #expect(texture.pixelFormat == format && texture.colorSpace == colorSpace)
        #expect(texture.pixels.count == format.byteCount(width: 8, height: 8))
        _ = try BlockDecoder.decode(KTX2Fixtures.pixels(texture), format: format, width: 8, height: 8)
    }

    @Test func anRGBA16FileHoldsThe16BitSamplesKTXExtractGives() throws {
        let texture = try KTX2Fixtures.texture(KTX2Fixtures.bytes("valid_R16G16B16A16_UNORM_2D.ktx2"))
        #expect(texture.pixelFormat == .rgba16 && texture.colorSpace == .linear)
        let reference = try png("output_R16G16B16A16_UNORM_2D.png", sixteenBit: true)
        #expect(reference.pixelFormat == .rgba16 && KTX2Fixtures.pixels(texture) == KTX2Fixtures.pixels(reference))
    }

    @Test(.enabled(if: KTX2Fixtures.hasASTC, "needs libastcenc3d"))
    func anASTCFileDecodesToThePNGKTXExtractWrote() throws {
        let texture = try KTX2Fixtures.texture(KTX2Fixtures.bytes("valid_ASTC_4x4_SRGB_BLOCK_2D.ktx2"))
        #expect(texture.pixelFormat == .astc4x4 && texture.colorSpace == .sRGB && texture.width == 16)
        let decoded = try ASTCDecoder(blockSize: .fourByFour, colorSpace: .sRGB).decode(KTX2Fixtures.pixels(texture), width: 16, height: 16)
        #expect(decoded.pixels == KTX2Fixtures.pixels(try png("output_ASTC_4x4_SRGB_BLOCK_2D.png")))
        let chain = try KTX2Fixtures.texture(KTX2Fixtures.bytes("valid_ASTC_4x4_SRGB_BLOCK_2D_MIP.ktx2"))
        #expect(chain.mipLevelCount == 5 && chain.levels.map(\.width) == [16, 8, 4, 2, 1])
        #expect(chain.levels.map(\.byteCount) == [256, 64, 16, 16, 16])
    }
}
