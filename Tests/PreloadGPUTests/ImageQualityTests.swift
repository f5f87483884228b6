import Foundation
import PreloadGPU
import Testing

@Suite struct ImageQualityTests {
    @Test func psnrOverStraightAndPremultipliedRGBA() throws {
        let source = RGBAImage(width: 2, height: 1, pixels: [100, 50, 0, 255, 200, 200, 200, 0])
        #expect(try ImageQuality.psnr(source, source, over: .rgba) == .infinity)
        // Only the transparent pixel's colour differs: invisible once premultiplied.
        let recoloured = RGBAImage(width: 2, height: 1, pixels: [100, 50, 0, 255, 0, 0, 0, 0])
        #expect(try ImageQuality.psnr(source, recoloured, over: .premultipliedRGBA) == .infinity)
        let straight = try ImageQuality.compare(source, recoloured, over: .rgba)
        #expect(straight.meanSquaredError == Double(3 * 200 * 200) / 8)
        #expect(abs(straight.psnr - 10 * log10(255.0 * 255 / 15000)) < 1e-9)
        // One step of red in the opaque pixel.
        let nudged = RGBAImage(width: 2, height: 1, pixels: [101, 50, 0, 255, 200, 200, 200, 0])
        #expect(try ImageQuality.compare(source, nudged, over: .premultipliedRGBA).meanSquaredError == 1.0 / 8)
    }

    @Test func theWorstBlockIsFound() throws {
        let source = RGBAImage(width: 8, height: 5, pixels: [UInt8](repeating: 128, count: 8 * 5 * 4))
        var decoded = source
        decoded.pixels[(4 * 8 + 6) * 4] = 138  // pixel (6, 4): the bottom-right partial block, 4 pixels
        let comparison = try ImageQuality.compare(source, decoded, over: .rgba)
        #expect(comparison.worstBlockX == 4 && comparison.worstBlockY == 4)
        #expect(comparison.worstBlockMeanSquaredError == 100.0 / 16)
    }

    @Test func differentSizesAreATypedError() {
        let a = RGBAImage(width: 1, height: 1, pixels: [0, 0, 0, 0])
        let b = RGBAImage(width: 2, height: 1, pixels: [UInt8](repeating: 0, count: 8))
        #expect(throws: ImageQuality.ComparisonError.sizeMismatch(sourceWidth: 1, sourceHeight: 1, decodedWidth: 2, decodedHeight: 1)) {
            try ImageQuality.compare(a, b, over: .rgba)
        }
    }
}
