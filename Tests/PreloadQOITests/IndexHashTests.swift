@testable import PreloadQOI
import Testing

/// The decoder's one-multiplication index hash against the spec's formula.
@Suite struct IndexHashTests {
    static func specHash(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) -> Int {
        Int((r * 3 + g * 5 + b * 7 + a * 11) % 64)
    }

    @Test func matchesTheSpecsFormula() {
        var generator = SystemRandomNumberGenerator()
        var pixels: [UInt32] = [0, 0xFFFF_FFFF, 0xFF00_0000, 0x00FF_FFFF, 0x8080_8080, 0x0102_0304]
        for _ in 0..<50_000 { pixels.append(UInt32.random(in: .min ... .max, using: &generator)) }
        for channel in 0..<4 {
            for value in 0...255 as ClosedRange<UInt32> { pixels.append(value << (8 * channel)) }
        }
        let wrong = pixels.first { pixel in
            QOIOpStream.hash(pixel) != Self.specHash(pixel & 0xFF, pixel >> 8 & 0xFF, pixel >> 16 & 0xFF, pixel >> 24)
        }
        #expect(wrong == nil, "\(String(wrong ?? 0, radix: 16))")
    }
}
