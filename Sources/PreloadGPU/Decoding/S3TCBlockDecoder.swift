/// Decodes the 8-byte halves BC1 to BC5 are made of: BC1's colour block (also BC3's colour half)
/// and the 8-value ramp of BC4 (also BC3's alpha half and each of BC5's two channels).
enum S3TCBlockDecoder {
    /// Writes the colour block at `block` into the red, green, blue and alpha bytes of the 16
    /// RGBA8 pixels at `pixels`. With `hasTransparency` (BC1), a block whose first colour is not
    /// greater than its second has three colours and transparent black; BC3's colour half always
    /// has four colours and leaves alpha as it is.
    static func decodeColor(_ block: UnsafeRawPointer, into pixels: UnsafeMutablePointer<UInt8>, hasTransparency: Bool) {
        let first = UInt16(littleEndian: block.loadUnaligned(as: UInt16.self))
        let second = UInt16(littleEndian: block.loadUnaligned(fromByteOffset: 2, as: UInt16.self))
        let indices = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let low = expand565(first), high = expand565(second)
        let fourColors = !hasTransparency || first > second
        let palette: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>)
        if fourColors {
            palette = (low, high, (2 &* low &+ high) / 3, (low &+ 2 &* high) / 3)
        } else {
            palette = (low, high, (low &+ high) / 2, SIMD4<Int32>(0, 0, 0, 0))
        }
        withUnsafeBytes(of: palette) { raw in
            let colors = raw.bindMemory(to: SIMD4<Int32>.self)
            for pixel in 0..<16 {
                let color = colors[Int((indices >> UInt32(pixel * 2)) & 3)]
                let channels = hasTransparency ? 4 : 3
                for channel in 0..<channels { pixels[pixel * 4 + channel] = UInt8(truncatingIfNeeded: color[channel]) }
            }
        }
    }

    /// Writes the 16 values of the single-channel block at `block` to every fourth byte from
    /// `pixels` (pass `pixels + 3` for alpha, `pixels + 1` for green).
    static func decodeChannel(_ block: UnsafeRawPointer, into pixels: UnsafeMutablePointer<UInt8>) {
        let first = Int32(block.load(as: UInt8.self))
        let second = Int32(block.load(fromByteOffset: 1, as: UInt8.self))
        var indices: UInt64 = 0
        for byte in 0..<6 { indices |= UInt64(block.load(fromByteOffset: 2 + byte, as: UInt8.self)) << UInt64(byte * 8) }
        var values = SIMD8<Int32>(first, second, 0, 0, 0, 0, 0, 0)
        if first > second {
            for step in 1..<7 { values[step + 1] = (first * Int32(7 - step) + second * Int32(step)) / 7 }
        } else {
            for step in 1..<5 { values[step + 1] = (first * Int32(5 - step) + second * Int32(step)) / 5 }
            values[6] = 0
            values[7] = 255
        }
        for pixel in 0..<16 {
            pixels[pixel * 4] = UInt8(truncatingIfNeeded: values[Int((indices >> UInt64(pixel * 3)) & 7)])
        }
    }

    /// A 5:6:5 colour widened to 8 bits a channel by repeating its top bits, alpha 255.
    private static func expand565(_ color: UInt16) -> SIMD4<Int32> {
        let red = Int32(color >> 11), green = Int32((color >> 5) & 63), blue = Int32(color & 31)
        return SIMD4(red << 3 | red >> 2, green << 2 | green >> 4, blue << 3 | blue >> 2, 255)
    }
}
