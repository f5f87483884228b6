/// Blocks built by hand from the format specifications, each with the texels the specification
/// decodes it to.
enum Blocks {
    /// A BC1 (S3TC DXT1) block: two RGB565 endpoints, then 2-bit indices, texel (x, y) at bit
    /// 2 * (4y + x) (EXT_texture_compression_s3tc). `color0 > color1` selects 4 colours, else
    /// 3 colours and transparent black.
    static func bc1(color0: UInt16, color1: UInt16, indices: [Int]) -> [UInt8] {
        var bits = BitPacker()
        bits.append(Int(color0), bits: 16)
        bits.append(Int(color1), bits: 16)
        for index in indices { bits.append(index, bits: 2) }
        return bits.bytes
    }

    /// A BC4 (RGTC1) block: two 8-bit endpoints, then 3-bit indices, texel (x, y) at bit
    /// 16 + 3 * (4y + x) (ARB_texture_compression_rgtc).
    static func bc4(red0: UInt8, red1: UInt8, indices: [Int]) -> [UInt8] {
        var bits = BitPacker()
        bits.append(Int(red0), bits: 8)
        bits.append(Int(red1), bits: 8)
        for index in indices { bits.append(index, bits: 3) }
        return bits.bytes
    }

    /// BC4's palette (ARB_texture_compression_rgtc): red0 > red1 gives red0, red1 and six steps
    /// between, (6 red0 + red1) / 7 first; else four steps, (4 red0 + red1) / 5 first, then 0 and 255.
    static func bc4Palette(red0: Int, red1: Int) -> [Double] {
        if red0 > red1 {
            return [Double(red0), Double(red1)] + (1...6).map { Double((7 - $0) * red0 + $0 * red1) / 7 }
        }
        return [Double(red0), Double(red1)] + (1...4).map { Double((5 - $0) * red0 + $0 * red1) / 5 } + [0, 255]
    }

    /// BC7's 4-bit index weights, in 64ths (ARB_texture_compression_bptc).
    static let bc7Weights4 = [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64]

    /// A BC7 mode 6 block (ARB_texture_compression_bptc): mode bits 0000001 (bit 6 set), the
    /// endpoints' 7-bit R0 R1 G0 G1 B0 B1 A0 A1, one P-bit each endpoint (the 8th, lowest bit of
    /// all its channels), then 4-bit indices, texel 0's (the anchor's) without its top bit.
    static func bc7Mode6(endpoint0: [Int], endpoint1: [Int], pBits: (Int, Int), indices: [Int]) -> [UInt8] {
        var bits = BitPacker()
        bits.append(1 << 6, bits: 7)
        for channel in 0..<4 {
            bits.append(endpoint0[channel], bits: 7)
            bits.append(endpoint1[channel], bits: 7)
        }
        bits.append(pBits.0, bits: 1)
        bits.append(pBits.1, bits: 1)
        for (texel, index) in indices.enumerated() {
            precondition(texel > 0 || index < 8, "the anchor index has 3 bits")
            bits.append(index, bits: texel == 0 ? 3 : 4)
        }
        precondition(bits.bitCount == 128)
        return bits.bytes
    }

    /// An ASTC 2D void-extent block (Khronos Data Format Specification, ASTC: "Void-Extent
    /// Blocks"): bits 0-8 are 1 1111 1100, bit 9 (HDR) 0, bits 10-11 1, the four 13-bit extent
    /// coordinates all ones (no extent: the block is one colour), then R, G, B, A as 16-bit UNORM.
    /// Each channel here is `value * 257`, so every conversion to 8 bits gives `value` back.
    static func astcVoidExtent(_ rgba: [UInt8]) -> [UInt8] {
        var bits = BitPacker()
        bits.append(0x1FC, bits: 9)
        bits.append(0, bits: 1)
        bits.append(0b11, bits: 2)
        for _ in 0..<4 { bits.append(0x1FFF, bits: 13) }
        for value in rgba { bits.append(Int(value) * 257, bits: 16) }
        return bits.bytes
    }
}

extension Blocks {
    /// ASTC's 2-bit weights (range 0...3) unquantized, in 64ths: the bits replicated to 6, plus 1
    /// above 32 (Khronos Data Format Specification, ASTC: "Weight Unquantization").
    static let astcWeights2 = [0, 21, 43, 64]

    /// An ASTC 4x4 block with one partition, LDR RGBA direct endpoints (CEM 12) and a 4x4 grid of
    /// 2-bit weights (Khronos Data Format Specification, ASTC):
    /// - bits 0-10, the block mode 000 0100 0010: weight range R = 100 (R0 in bit 4, R2 R1 in
    ///   bits 1-0) with H = 0, that is 0...3; bits 3-2 = 00 selects a grid B + 4 wide (B, bits
    ///   8-7, = 0) and A + 2 high (A, bits 6-5, = 2); no dual plane (bit 10);
    /// - bits 11-12: one partition (0); bits 13-16: CEM 12;
    /// - from bit 17, the 8 endpoint values R0 R1 G0 G1 B0 B1 A0 A1: 8 bits each, since 64 bits fit
    ///   in the 79 left beside the 32 weight bits (so the range is 0...255, unquantized as is);
    /// - the weights, 2 bits each in texel order, from bit 127 downwards (the weight stream's bit k
    ///   is the block's bit 127 - k).
    /// A 4x4 grid on a 4x4 block needs no infill: texel i takes weight i. The endpoints must not
    /// trigger blue contraction: R1 + G1 + B1 >= R0 + G0 + B0.
    static func astcRGBADirect4x4(endpoint0: [Int], endpoint1: [Int], weights: [Int]) -> [UInt8] {
        precondition(endpoint1[0] + endpoint1[1] + endpoint1[2] >= endpoint0[0] + endpoint0[1] + endpoint0[2])
        var bits = BitPacker()
        bits.append(0b000_0100_0010, bits: 11)
        bits.append(0, bits: 2)
        bits.append(12, bits: 4)
        for channel in 0..<4 {
            bits.append(endpoint0[channel], bits: 8)
            bits.append(endpoint1[channel], bits: 8)
        }
        while bits.bitCount < 128 { bits.append(0, bits: 1) }
        var bytes = bits.bytes
        for (texel, weight) in weights.enumerated() {
            for bit in 0..<2 where weight >> bit & 1 == 1 {
                let position = 127 - (texel * 2 + bit)
                bytes[position / 8] |= 1 << UInt8(position % 8)
            }
        }
        return bytes
    }

    /// An ASTC LDR texel between two 8-bit endpoints at `weight` 64ths, as 8 bits: endpoints widen
    /// to 16 bits (linear: e * 257; sRGB: e * 256 + 0x80), interpolate as
    /// (c0 (64 - w) + c1 w + 32) / 64, and come back to 8 bits (linear: the UNORM16 value rounded
    /// to UNORM8, c / 257; sRGB: the top 8 bits).
    static func astcInterpolate(_ endpoint0: Int, _ endpoint1: Int, weight: Int, sRGB: Bool) -> Int {
        let wide0 = sRGB ? endpoint0 << 8 | 0x80 : endpoint0 * 257, wide1 = sRGB ? endpoint1 << 8 | 0x80 : endpoint1 * 257
        let value = (wide0 * (64 - weight) + wide1 * weight + 32) >> 6
        return sRGB ? value >> 8 : Int((Double(value) / 257).rounded())
    }
}
