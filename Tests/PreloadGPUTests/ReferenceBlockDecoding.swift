/// The few lines of BC1 and BC4 decoding the DXT encoder's tests check its blocks with (BC3 is
/// BC4-style alpha then BC1 colour; BC5 is two BC4 blocks), as the D3D specification gives them.
enum ReferenceBlockDecoding {
    /// The 16 RGB colours (row after row) of the 8-byte BC1 colour block at `offset` in four-colour mode,
    /// or three colours and black when the first endpoint is not above the second.
    static func bc1(_ bytes: [UInt8], at offset: Int) -> [[Int]] {
        func endpoint(_ at: Int) -> (value: Int, rgb: [Int]) {
            let value = Int(bytes[offset + at]) | Int(bytes[offset + at + 1]) << 8
            return (value, [(value >> 11) * 255 / 31, (value >> 5 & 63) * 255 / 63, (value & 31) * 255 / 31])
        }
        let (first, second) = (endpoint(0), endpoint(2))
        let palette: [[Int]] =
            first.value > second.value
            ? [first.rgb, second.rgb, zip(first.rgb, second.rgb).map { (2 * $0 + $1) / 3 }, zip(first.rgb, second.rgb).map { ($0 + 2 * $1) / 3 }]
            : [first.rgb, second.rgb, zip(first.rgb, second.rgb).map { ($0 + $1) / 2 }, [0, 0, 0]]
        let indices = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
        return (0..<16).map { palette[indices >> (2 * $0) & 3] }
    }

    /// The 16 values (row after row) of the 8-byte BC4 block at `offset`.
    static func bc4(_ bytes: [UInt8], at offset: Int) -> [Int] {
        let (first, second) = (Int(bytes[offset]), Int(bytes[offset + 1]))
        let palette =
            first > second
            ? [first, second] + (1...6).map { ((7 - $0) * first + $0 * second) / 7 }
            : [first, second] + (1...4).map { ((5 - $0) * first + $0 * second) / 5 } + [0, 255]
        let indices = (0..<6).reduce(0) { $0 | Int(bytes[offset + 2 + $1]) << (8 * $1) }
        return (0..<16).map { palette[indices >> (3 * $0) & 7] }
    }
}
