import Preload
import PreloadWebP
import Testing

/// Every fixture decodes to Pillow's pixels: exactly for lossless images, within 2 per channel
/// for lossy ones (Pillow bundles its own libwebp, which may be another version than the
/// system's); an animation gives its first frame on a transparent canvas, with a warning.
@Suite struct PillowAgreementTests {
    /// The most a lossy sample may differ from Pillow's.
    static let lossyTolerance = 2

    @Test(arguments: WebPFixtures.compared)
    func decodesAsPillowDoes(name: String) throws {
        let expectation = try #require(WebPFixtures.expectations[name])
        let texture = try WebPDecoder.decode(try WebPFixtures.bytes(name))
        #expect(texture.width == expectation.width && texture.height == expectation.height)
        #expect(texture.pixelFormat == .rgba8 && texture.alphaMode == .straight)
        let expected = try WebPFixtures.pillowPixels(name)
        try #require(texture.pixels.count == expected.count)
        let difference = WebPFixtures.maxDifference(texture.pixels.array, expected)
        #expect(difference <= (expectation.lossless ? 0 : Self.lossyTolerance), "\(name): largest difference from Pillow \(difference)")
    }

    @Test func theLargeLosslessImageIsExact() throws {
        let texture = try WebPDecoder.decode(try WebPFixtures.bytes(WebPFixtures.large))
        #expect(texture.width == 2048 && texture.height == 2048)
        var mismatches = 0
        for y in stride(from: 0, to: 2048, by: 7) {
            for x in 0..<2048 where texture.rgba8(x: x, y: y) != WebPFixtures.largePixel(x: x, y: y) { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test(arguments: WebPFixtures.animations)
    func anAnimationLoadsItsFirstFrameWithAWarning(name: String) throws {
        var warnings: [AssetWarning] = []
        _ = try WebPDecoder.decode(try WebPFixtures.bytes(name), warn: { warnings.append($0) })
        let frames = try #require(WebPFixtures.expectations[name]).frames
        #expect(warnings.map(\.code) == [.webpAnimatedFirstFrame])
        #expect(warnings.first?.message.contains("\(frames) frames") == true, "\(warnings)")
    }

    @Test func aFirstFrameSmallerThanTheCanvasSitsAtItsOffsetOnTransparency() throws {
        // webpmux put a 40x30 frame at (8, 6) on a 64x48 canvas.
        let texture = try WebPDecoder.decode(try WebPFixtures.bytes("webpmux-offset-frame.webp"))
        #expect(texture.rgba8(x: 0, y: 0) == .zero && texture.rgba8(x: 7, y: 20) == .zero && texture.rgba8(x: 48, y: 20) == .zero)
        #expect(texture.rgba8(x: 20, y: 5) == .zero && texture.rgba8(x: 20, y: 36) == .zero)
        let inside = (6..<36).flatMap { y in (8..<48).map { x in texture.rgba8(x: x, y: y) } }
        #expect(inside.contains { $0[3] != 0 }, "the frame's pixels are there")
    }

    @Test(arguments: WebPFixtures.stills)
    func aStillImageLoadsWithoutWarnings(name: String) throws {
        var warnings: [AssetWarning] = []
        _ = try WebPDecoder.decode(try WebPFixtures.bytes(name), warn: { warnings.append($0) })
        #expect(warnings.isEmpty)
    }

    @Test(arguments: ["pillow-lossless.webp", "cwebp-lossy-alpha.webp", "webpmux-offset-frame.webp"])
    func premultipliedAlphaRoundsToNearest(name: String) throws {
        let straight = try WebPDecoder.decode(try WebPFixtures.bytes(name)).pixels.array
        let texture = try WebPDecoder.decode(try WebPFixtures.bytes(name), options: WebPLoaderSettings(alphaMode: .premultiplied))
        #expect(texture.alphaMode == .premultiplied)
        var expected = straight
        for pixel in stride(from: 0, to: expected.count, by: 4) {
            let alpha = Int(expected[pixel + 3])
            for channel in 0..<3 { expected[pixel + channel] = UInt8((Int(expected[pixel + channel]) * alpha + 127) / 255) }
        }
        #expect(texture.pixels == expected)
        #expect(straight.enumerated().contains { $0.offset % 4 == 3 && $0.element != 0 && $0.element != 255 }, "partial alpha is tested")
    }

    @Test func anOpaqueLossyImageHasFullAlpha() throws {
        let texture = try WebPDecoder.decode(try WebPFixtures.bytes("cwebp-lossy.webp"))
        #expect(texture.pixels.array.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }
}
