/// Blocks of one colour, encoded exactly: mode 5 keeps alpha at 8 bits, and every 8-bit colour
/// value is the first interpolation (weight 21/64) of some pair of 7-bit endpoints.
enum BC7SolidColor {
    /// For each 8-bit value, the low endpoint's 7-bit code (bits 0...6) and the high's (bits 8...14)
    /// whose first interpolated value is exactly it.
    static let endpointCodes: [UInt16] = (0..<256).map { target -> UInt16 in
        var best: UInt16 = 0, bestDistance = Int32.max
        for low in Int32(0)..<128 {
            // The high endpoint's value that makes the target, then the codes around it.
            let wanted = (Int32(target) * 64 - 43 * BC7Mode.expand(low, bits: 7)) / 21
            for high in (wanted / 2 - 1).clamped(to: 0...127)...(wanted / 2 + 1).clamped(to: 0...127) {
                let value = BC7Mode.interpolate(BC7Mode.expand(low, bits: 7), BC7Mode.expand(high, bits: 7), weight: 21)
                let distance = abs(value - Int32(target)) * 256 + abs(low - high)
                if distance < bestDistance {
                    bestDistance = distance
                    best = UInt16(low) | UInt16(high) << 8
                }
            }
        }
        return best
    }

    /// The mode 5 block whose 16 pixels are `color` (RGBA8).
    static func block(_ color: SIMD4<UInt8>) -> BlockBitWriter {
        var color8 = SubsetFit(), alpha = SubsetFit()
        for channel in 0..<3 {
            let codes = endpointCodes[Int(color[channel])]
            color8.low[channel] = Int32(codes & 0x7F)
            color8.high[channel] = Int32(codes >> 8)
        }
        color8.indices = 0x1111_1111_1111_1111
        alpha.low.w = Int32(color.w)
        alpha.high.w = Int32(color.w)
        return BC7BlockPacker.packSeparateAlpha(mode: BC7Mode.all[5], rotation: 0, indexSelection: 0, color: color8, alpha: alpha)
    }
}
