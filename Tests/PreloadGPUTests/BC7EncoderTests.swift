import Preload
import PreloadGPU
import Testing

/// The BC7 encoder through the block decoder: quality floors on small generated images, exact
/// one-colour blocks, edges, and output that does not depend on the thread count.
@Suite struct BC7EncoderTests {
    static func roundTrip(_ image: RGBAImage, _ options: BC7Encoder.Options) throws -> RGBAImage {
        let blocks = BC7Encoder(options: options).encode(image)
        #expect(blocks.count == PixelFormat.bc7.byteCount(width: image.width, height: image.height))
        return try BlockDecoder.decode(blocks, format: .bc7, width: image.width, height: image.height)
    }

    @Test(arguments: EncoderQuality.allCases)
    func spritesAndGradientsKeepTheirQuality(quality: EncoderQuality) throws {
        let sprite = TestImages.sprite(size: 24)
        let weighted = try Self.roundTrip(sprite, BC7Encoder.Options(quality: quality, weightsColorByAlpha: true))
        let spritePSNR = try ImageQuality.psnr(sprite, weighted, over: .premultipliedRGBA)
        #expect(spritePSNR > (quality == .fast ? 35 : 40), "sprite, \(quality): \(spritePSNR) dB")
        let straight = try Self.roundTrip(sprite, BC7Encoder.Options(quality: quality))
        let straightPSNR = try ImageQuality.psnr(sprite, straight, over: .rgba)
        #expect(straightPSNR > 36, "sprite over straight RGBA, \(quality): \(straightPSNR) dB")

        let gradient = TestImages.gradient(width: 16, height: 12)
        let decoded = try Self.roundTrip(gradient, BC7Encoder.Options(quality: quality))
        let gradientPSNR = try ImageQuality.psnr(gradient, decoded, over: .rgba)
        #expect(gradientPSNR > 44, "gradient, \(quality): \(gradientPSNR) dB")
    }

    @Test func betterQualityIsNotWorse() throws {
        let image = TestImages.noise(width: 12, height: 8, hasAlpha: true)
        let errors = try EncoderQuality.allCases.map { quality in
            try ImageQuality.compare(image, Self.roundTrip(image, BC7Encoder.Options(quality: quality)), over: .rgba).meanSquaredError
        }
        // Each preset searches more than the one before; greedy refinement can end a block a
        // little worse from a better start, so medium and thorough are compared within 2%.
        #expect(errors[1] <= errors[0] && errors[2] <= errors[1] * 1.02, "\(errors)")
    }

    @Test func oneColourBlocksAreExact() throws {
        // 64 blocks of one colour each, every channel value 0...255 among them, some translucent.
        var pixels: [UInt8] = []
        for y in 0..<8 * 4 {
            for x in 0..<8 * 4 {
                let block = (y / 4) * 8 + x / 4
                pixels += [UInt8(block * 4), UInt8(255 - block * 4 - 1), UInt8((block * 4 + 2) % 256), UInt8(block % 3 == 0 ? 255 : block * 4 + 3)]
            }
        }
        let image = RGBAImage(width: 32, height: 32, pixels: pixels)
        for quality in EncoderQuality.allCases {
            #expect(try Self.roundTrip(image, BC7Encoder.Options(quality: quality)) == image)
        }
    }

    @Test func transparentBlocksAreExactOnceWeighted() throws {
        // Alpha 0 everywhere, colours varying: premultiplied, every pixel is transparent black.
        var image = TestImages.noise(width: 8, height: 8, hasAlpha: false)
        for pixel in 0..<64 { image.pixels[pixel * 4 + 3] = 0 }
        let decoded = try Self.roundTrip(image, BC7Encoder.Options(weightsColorByAlpha: true))
        #expect(try ImageQuality.psnr(image, decoded, over: .premultipliedRGBA) == .infinity)
        #expect(decoded.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 0 })
    }

    @Test(arguments: [(5, 3), (1, 1), (17, 9), (4, 7)])
    func partialEdgeBlocksRepeatTheEdge(width: Int, height: Int) throws {
        let image = TestImages.gradient(width: width, height: height)
        let decoded = try Self.roundTrip(image, BC7Encoder.Options(quality: .fast))
        #expect(try ImageQuality.psnr(image, decoded, over: .rgba) > 40)
        // A 1x1 image is one colour: exact.
        if width == 1 { #expect(decoded == image) }
    }

    @Test func theOutputDoesNotDependOnThreads() {
        let image = TestImages.noise(width: 12, height: 20, hasAlpha: true)
        for quality in [EncoderQuality.fast, .medium] {
            let single = BC7Encoder(options: BC7Encoder.Options(quality: quality, threads: 1)).encode(image)
            let several = BC7Encoder(options: BC7Encoder.Options(quality: quality, threads: 3)).encode(image)
            #expect(single == several)
        }
    }

    @Test func emptyImagesHaveNoBlocks() {
        #expect(BC7Encoder().encode(RGBAImage(width: 0, height: 0, pixels: [])).isEmpty)
    }
}
