@testable import PreloadGPU
import Preload
import Testing

/// Files and descriptors checked byte for byte against values worked out by hand from the
/// KTX 2.0 specification (file structure, index, level index, key/value data, mipPadding) and
/// the Khronos Data Format Specification 1.3 (the basic descriptor block and its samples).
@Suite struct KTX2SpecBytesTests {
    @Test func rgba8SRGBDescriptorIsTheSpecificationsRGBSDABlock() {
        let dfd = KTX2DataFormatDescriptor(format: .rgba8, colorSpace: .sRGB, alphaMode: .straight).bytes
        #expect(
            dfd == [
                0x5C, 0x00, 0x00, 0x00,  // dfdTotalSize = 92
                0x00, 0x00, 0x00, 0x00,  // vendorId = 0 (Khronos), descriptorType = 0 (basic)
                0x02, 0x00, 0x58, 0x00,  // versionNumber = 2 (1.3), descriptorBlockSize = 24 + 16 x 4 = 88
                0x01, 0x01, 0x02, 0x00,  // colorModel = RGBSDA, primaries = BT709, transfer = SRGB, flags = straight
                0x00, 0x00, 0x00, 0x00,  // texelBlockDimension = 1 x 1 x 1 x 1 (each stored minus 1)
                0x04, 0x00, 0x00, 0x00,  // bytesPlane0 = 4
                0x00, 0x00, 0x00, 0x00,  // bytesPlane4-7 = 0
                0x00, 0x00, 0x07, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0,  // R: bits 0-7, channel 0, 0...255
                0x08, 0x00, 0x07, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0,  // G: bits 8-15, channel 1
                0x10, 0x00, 0x07, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0,  // B: bits 16-23, channel 2
                0x18, 0x00, 0x07, 0x1F, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0,  // A: bits 24-31, channel 15 | LINEAR (sRGB file)
            ])
    }

    @Test func bc7SRGBDescriptorIsTheSpecificationsBC7Block() {
        let dfd = KTX2DataFormatDescriptor(format: .bc7, colorSpace: .sRGB, alphaMode: .straight).bytes
        #expect(
            dfd == [
                0x2C, 0x00, 0x00, 0x00,  // dfdTotalSize = 44
                0x00, 0x00, 0x00, 0x00,  // Khronos, basic
                0x02, 0x00, 0x28, 0x00,  // versionNumber = 2, descriptorBlockSize = 24 + 16 = 40
                0x86, 0x01, 0x02, 0x00,  // colorModel = BC7 (134), BT709, SRGB, straight
                0x03, 0x03, 0x00, 0x00,  // texelBlockDimension = 4 x 4
                0x10, 0x00, 0x00, 0x00,  // bytesPlane0 = 16
                0x00, 0x00, 0x00, 0x00,
                0x00, 0x00, 0x7F, 0x00,  // bitOffset 0, bitLength 128 - 1, channel 0 (colour)
                0x00, 0x00, 0x00, 0x00,  // samplePosition
                0x00, 0x00, 0x00, 0x00,  // sampleLower = 0
                0xFF, 0xFF, 0xFF, 0xFF,  // sampleUpper = UINT32_MAX
            ])
    }

    @Test func blockDescriptorsFollowTheirColourModelsTables() {
        func descriptor(_ format: PixelFormat, _ colorSpace: ColorSpace = .linear, _ alpha: AlphaMode = .straight) -> KTX2DataFormatDescriptor {
            KTX2DataFormatDescriptor(format: format, colorSpace: colorSpace, alphaMode: alpha)
        }
        // BC1 with punch-through alpha: one 64-bit sample, channel 1 (BC1A_ALPHAPRESENT), never LINEAR.
        #expect(descriptor(.bc1, .sRGB).colorModel == 128)
        #expect(descriptor(.bc1, .sRGB).samples.map(\.channelType) == [1])
        // BC3: alpha (channel 15, LINEAR in an sRGB file) at bit 0, colour at bit 64.
        #expect(descriptor(.bc3, .sRGB).samples.map(\.channelType) == [0x1F, 0])
        #expect(descriptor(.bc3).samples.map(\.channelType) == [15, 0])
        #expect(descriptor(.bc3).samples.map(\.bitOffset) == [0, 64])
        // BC5: red at bit 0, green at bit 64.
        #expect(descriptor(.bc5).samples.map(\.channelType) == [0, 1])
        #expect(descriptor(.bc4).bytesPlanes == 8 && descriptor(.bc4).colorModel == 131)
        // ASTC 6x6: block dimensions 5, 5; 128-bit sample.
        #expect(descriptor(.astc6x6).texelBlockDimensions == 0x0505 && descriptor(.astc6x6).colorModel == 162)
        #expect(descriptor(.astc8x8).samples.map(\.bitLength) == [127])
        // RGBA16: 16-bit samples, 0...65535, 8 bytes a texel.
        #expect(descriptor(.rgba16).samples.map(\.upper) == [65535, 65535, 65535, 65535])
        #expect(descriptor(.rgba16).samples.map(\.bitOffset) == [0, 16, 32, 48])
        #expect(descriptor(.rgba16).bytesPlanes == 8)
        #expect(descriptor(.bc7, .linear, .premultiplied).flags == 1 && descriptor(.bc7, .linear).transferFunction == 1)
    }

    /// A whole 2 x 2 sRGB RGBA8 file with two levels, every byte worked out from the
    /// specification's structure: the level index lists level 0 first, the data holds level 1
    /// (the 1 x 1) first, each on a multiple of lcm(4, 4) = 4.
    @Test func aSmallRGBA8FileIsTheHandComputedBytes() throws {
        let level0: [UInt8] = Array(1...16), level1: [UInt8] = [0xA1, 0xA2, 0xA3, 0xA4]
        let texture = Texture(
            width: 2, height: 2, pixelFormat: .rgba8, alphaMode: .straight, colorSpace: .sRGB, mipLevelCount: 2, pixels: level0 + level1)
        let dfd = KTX2DataFormatDescriptor(format: .rgba8, colorSpace: .sRGB, alphaMode: .straight).bytes
        let expected: [UInt8] =
            [
                0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,  // identifier
                0x2B, 0x00, 0x00, 0x00,  // vkFormat = VK_FORMAT_R8G8B8A8_SRGB (43)
                0x01, 0x00, 0x00, 0x00,  // typeSize = 1
                0x02, 0x00, 0x00, 0x00,  // pixelWidth = 2
                0x02, 0x00, 0x00, 0x00,  // pixelHeight = 2
                0x00, 0x00, 0x00, 0x00,  // pixelDepth = 0
                0x00, 0x00, 0x00, 0x00,  // layerCount = 0
                0x01, 0x00, 0x00, 0x00,  // faceCount = 1
                0x02, 0x00, 0x00, 0x00,  // levelCount = 2
                0x00, 0x00, 0x00, 0x00,  // supercompressionScheme = 0
                0x80, 0x00, 0x00, 0x00,  // dfdByteOffset = 80 + 2 x 24 = 128
                0x5C, 0x00, 0x00, 0x00,  // dfdByteLength = 92
                0xDC, 0x00, 0x00, 0x00,  // kvdByteOffset = 128 + 92 = 220
                0x3C, 0x00, 0x00, 0x00,  // kvdByteLength = 24 + 36 = 60
                0, 0, 0, 0, 0, 0, 0, 0,  // sgdByteOffset = 0
                0, 0, 0, 0, 0, 0, 0, 0,  // sgdByteLength = 0
                0x1C, 0x01, 0, 0, 0, 0, 0, 0,  // level[0].byteOffset = 284
                0x10, 0x00, 0, 0, 0, 0, 0, 0,  // level[0].byteLength = 16
                0x10, 0x00, 0, 0, 0, 0, 0, 0,  // level[0].uncompressedByteLength = 16
                0x18, 0x01, 0, 0, 0, 0, 0, 0,  // level[1].byteOffset = 280
                0x04, 0x00, 0, 0, 0, 0, 0, 0,  // level[1].byteLength = 4
                0x04, 0x00, 0, 0, 0, 0, 0, 0,  // level[1].uncompressedByteLength = 4
            ] + dfd
            + [0x12, 0x00, 0x00, 0x00] + Array("KTXorientation".utf8) + [0x00] + Array("rd".utf8) + [0x00, 0x00, 0x00]  // 18 bytes + 2 padding
            + [0x1D, 0x00, 0x00, 0x00] + Array("KTXwriter".utf8) + [0x00] + Array("Preload PreloadGPU".utf8) + [0x00, 0x00, 0x00, 0x00]  // 29 + 3
            + level1 + level0
        #expect(try KTX2File(texture: texture).encoded() == expected)
        #expect(dfd.count == 92)
    }

    /// A BC1 texture (8-byte blocks): a level after key/value data that ends on a multiple of 4
    /// but not 8 gets 4 bytes of mipPadding.
    @Test func levelsOfEightByteBlocksStartOnMultiplesOfEight() throws {
        // KTXwriter "abc\0": 4 + 14 bytes (padded to 16) = 20; orientation entry: 24. The DFD
        // (44 bytes) starts at 80 + 24 = 104; key/value data at 148, 44 bytes, ending at 192,
        // already a multiple of 8. With a writer name 5 bytes longer the data ends at 196.
        let texture = Texture(width: 4, height: 4, pixelFormat: .bc1, alphaMode: .straight, pixels: [UInt8](repeating: 9, count: 8))
        let even = try KTX2File(texture: texture, keyValues: ["KTXwriter": Array("abc\0".utf8)]).encoded()
        #expect(KTX2Fixtures.u64(even, 80) == 192)
        let padded = try KTX2File(texture: texture, keyValues: ["KTXwriter": Array("abcdefgh\0".utf8)]).encoded()
        #expect(KTX2Fixtures.u32(padded, 60) == 48)  // 24 + (4 + 19, padded to 24)
        #expect(KTX2Fixtures.u64(padded, 80) == 200)  // 148 + 48 = 196, padded to 200
        #expect(padded[196..<200] == [0, 0, 0, 0])
        #expect(padded.count == 208)
    }
}
