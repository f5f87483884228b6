import Foundation
import Preload
import PreloadPNG
@testable import PreloadGPU

/// The fixture files (see Fixtures/make_fixtures.py), synthetic test pictures, and what the tests
/// measure them with.
enum GPUFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    /// Whether libastcenc (Debian's libastcenc3d) is installed: a fresh machine lacks it, and its
    /// tests are skipped there (CI runs them after `.ci/system-packages install gpu`).
    static let hasASTC = (try? ASTCLibrary.shared.get()) != nil

    /// Whether stb_dxt (Debian's libstb0) is installed: a fresh machine lacks it, and its tests
    /// are skipped there.
    static let hasSTB = (try? STBDXTLibrary.shared.get()) != nil

    /// The bytes of the fixture `name`.
    static func file(_ name: String) -> [UInt8] {
        [UInt8](try! Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The fixture PNG `name`, decoded.
    static func png(_ name: String) throws -> RGBAImage {
        RGBAImage(try PNGDecoder.decode(file(name)))
    }

    /// A `width` by `height` picture a texture might hold: smooth gradients, a hard diagonal
    /// edge, a little deterministic noise, and alpha rising from 0 in the top left to 255.
    static func picture(width: Int, height: Int) -> RGBAImage {
        var pixels: [UInt8] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Int(state >> 61)  // 0...7
                let red = x * 255 / max(width - 1, 1)
                let green = 40 + y * 180 / max(height - 1, 1) + noise
                let blue = x > y ? 200 - noise : 60 + noise
                let alpha = min(255, (x + y) * 400 / max(width + height - 2, 1))
                pixels += [UInt8(red), UInt8(green), UInt8(blue), UInt8(alpha)]
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Peak signal-to-noise ratio of `decoded` against `original` over the channels `channels`
    /// of every pixel (0 red ... 3 alpha), in dB; infinity when they are equal.
    static func psnr(_ original: RGBAImage, _ decoded: RGBAImage, channels: [Int] = [0, 1, 2, 3]) -> Double {
        precondition(original.width == decoded.width && original.height == decoded.height)
        var squares = 0.0
        for pixel in 0..<original.width * original.height {
            for channel in channels {
                let difference = Double(original.pixels[pixel * 4 + channel]) - Double(decoded.pixels[pixel * 4 + channel])
                squares += difference * difference
            }
        }
        let mean = squares / Double(original.width * original.height * channels.count)
        return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
    }

    /// `image` with its colour multiplied by alpha, `(c * a + 127) / 255`: what is seen.
    static func premultiplied(_ image: RGBAImage) -> RGBAImage {
        var pixels = image.pixels
        for pixel in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = Int(pixels[pixel + 3])
            for channel in 0..<3 { pixels[pixel + channel] = UInt8((Int(pixels[pixel + channel]) * alpha + 127) / 255) }
        }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }
}
