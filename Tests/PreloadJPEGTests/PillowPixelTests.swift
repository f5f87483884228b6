import Preload
import PreloadJPEG
import Testing

/// Every fixture decodes to Pillow's pixels: Pillow decodes with libjpeg-turbo too, with the same
/// accurate IDCT and fancy upsampling. The issue allows 2 per channel; measured: 0 on every file.
@Suite struct PillowPixelTests {
    @Test(arguments: JPEGFixtures.decodedByPillow)
    func decodesAsPillowDoes(_ name: String) throws {
        var warnings: [AssetWarning] = []
        let texture = try JPEGDecoder.decode(try JPEGFixtures.jpeg(name), warn: { warnings.append($0) })
        #expect(texture.width == 61 && texture.height == 37)
        #expect(texture.pixelFormat == .rgba8 && texture.alphaMode == .straight)
        let expected = try JPEGFixtures.pillowPixels(name)
        let difference = JPEGFixtures.maxDifference(texture.pixels.array, expected)
        #expect(difference <= 2, "\(name): off by up to \(difference) from Pillow")
        #expect(difference == 0, "\(name): measured exact so far; off by \(difference)")
        #expect(stride(from: 3, to: texture.pixels.count, by: 4).allSatisfy { texture.pixels[$0] == 255 })
        #expect(warnings.isEmpty)
    }

    @Test func premultipliedOnlyNamesTheConventionForOpaquePixels() throws {
        let data = try JPEGFixtures.jpeg("pillow-420")
        let straight = try JPEGDecoder.decode(data)
        let premultiplied = try JPEGDecoder.decode(data, options: JPEGLoaderSettings(alphaMode: .premultiplied))
        #expect(premultiplied.alphaMode == .premultiplied && premultiplied.pixels == straight.pixels)
    }

    @Test func largeImagesDecodeIntoPooledMemory() throws {
        let memory = AssetMemory()
        let texture = try JPEGDecoder.decode(try JPEGFixtures.bytes("large-flat.jpg"), memory: memory)
        #expect(texture.width == 4096 && texture.height == 4096 && texture.pixels.isPooled)
        #expect(texture.rgba8(x: 0, y: 0) == SIMD4(128, 128, 128, 255) && texture.rgba8(x: 4095, y: 4095) == SIMD4(128, 128, 128, 255))
    }
}
