import Preload
import Testing

@Suite struct PixelFormatTests {
    @Test func blockFormatsCountWholeBlocksPerLevel() {
        #expect(PixelFormat.bc7.byteCount(width: 5, height: 3) == 2 * 1 * 16)
        #expect(PixelFormat.astc6x6.byteCount(width: 12, height: 13) == 2 * 3 * 16)
        #expect(PixelFormat.bc1.byteCount(width: 1, height: 1) == 8)
        #expect(Texture.fullMipLevelCount(width: 256, height: 64) == 9)
        #expect(Texture.fullMipLevelCount(width: 1, height: 1) == 1)
        // 8x4 BC7: 2 blocks, then 4x2: 1, 2x1: 1, 1x1: 1.
        #expect(Texture.byteCount(width: 8, height: 4, pixelFormat: .bc7, mipLevelCount: 4) == 5 * 16)
        let texture = Texture(
            width: 8, height: 4, pixelFormat: .bc7, alphaMode: .straight, mipLevelCount: 4, pixels: [UInt8](repeating: 0, count: 80))
        #expect(texture.levels.map(\.offset) == [0, 32, 48, 64])
        #expect(texture.levels.map(\.width) == [8, 4, 2, 1])
        #expect(texture.bytesPerRow == 32)
    }

    @Test func vulkanAndGLNumbersAreTheRegistries() {
        #expect(PixelFormat.bc7.vulkanFormat(colorSpace: .sRGB) == 146)
        #expect(PixelFormat.bc7.vulkanFormat(colorSpace: .linear) == 145)
        #expect(PixelFormat.astc4x4.vulkanFormat(colorSpace: .sRGB) == 158)
        #expect(PixelFormat.astc8x8.vulkanFormat(colorSpace: .linear) == 171)
        #expect(PixelFormat.rgba8.glInternalFormat(colorSpace: .sRGB) == 0x8C43)
        #expect(PixelFormat.astc6x6.glInternalFormat(colorSpace: .sRGB) == 0x93D4)
        #expect(PixelFormat.bc4.glInternalFormat(colorSpace: .sRGB) == 0x8DBB)
    }

    @Test func aTextureStillFitsAnExistentialsInlineBuffer() {
        #expect(MemoryLayout<Texture>.size <= 3 * MemoryLayout<Int>.size)
    }
}
