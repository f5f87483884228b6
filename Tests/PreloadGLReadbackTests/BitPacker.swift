/// Bits appended least significant first into little-endian bytes: how BC4's 3-bit indices,
/// BC7's fields and ASTC's fields lie in a block.
struct BitPacker {
    private(set) var bytes: [UInt8] = []
    private var count = 0

    /// Appends the low `width` bits of `value`, least significant first.
    mutating func append(_ value: Int, bits width: Int) {
        for bit in 0..<width {
            if count % 8 == 0 { bytes.append(0) }
            if value >> bit & 1 == 1 { bytes[count / 8] |= 1 << UInt8(count % 8) }
            count += 1
        }
    }

    /// The bits appended so far, `bitCount` of them.
    var bitCount: Int { count }
}
