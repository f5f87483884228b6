import Foundation
import Preload

/// The WebP files `Fixtures/make_fixtures.py` wrote with Pillow, cwebp, img2webp and webpmux,
/// and what Pillow decodes from each (`Fixtures/expected.json`, `Fixtures/NAME.rgba`).
enum WebPFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    /// One line of `expected.json`.
    struct Expectation: Decodable, Sendable {
        let width: Int
        let height: Int
        /// Whether the (first frame's) image is lossless: Pillow's pixels are then matched exactly.
        let lossless: Bool
        let frames: Int
    }

    private struct Manifest: Decodable {
        let fixtures: [String: Expectation]
    }

    static let expectations: [String: Expectation] = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("expected.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).fixtures
    }()

    /// Every fixture with Pillow's pixels stored next to it (all but the large one), by name.
    static let compared = expectations.keys.filter { $0 != large }.sorted()
    static let stills = compared.filter { expectations[$0]!.frames == 1 }
    static let animations = compared.filter { expectations[$0]!.frames > 1 }
    /// 2048x2048 lossless, whose pixels follow ``largePixel(x:y:)``.
    static let large = "large-lossless.webp"

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Pillow's RGBA8 decode of `name` (the first frame, on the canvas, for an animation).
    static func pillowPixels(_ name: String) throws -> [UInt8] {
        try bytes(String(name.dropLast(".webp".count)) + ".rgba")
    }

    /// The large fixture's pixel at `(x, y)`, by the formula that made it.
    static func largePixel(x: Int, y: Int) -> SIMD4<UInt8> {
        SIMD4(UInt8(x * 7 % 256), UInt8(y * 3 % 256), UInt8((x ^ y) % 256), 255)
    }

    /// The largest difference between two equally long byte arrays, sample by sample.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// The RIFF size field set to match `bytes` (for a file cut or lengthened on purpose).
    static func fixingRIFFSize(_ bytes: [UInt8]) -> [UInt8] {
        var fixed = bytes
        let size = UInt32(bytes.count - 8)
        for index in 0..<4 { fixed[4 + index] = UInt8(truncatingIfNeeded: size >> (8 * index)) }
        return fixed
    }
}
