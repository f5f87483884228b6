#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One pass over a name's UTF-8 bytes: a 64-bit hash of them, and whether the name, read as a
/// path, is already normalized (no empty, `.` or `..` component, no trailing slash; see
/// ``AssetPath/isNormalized(_:)``).
///
/// The store keys its tables by this hash and asks whether a name needs an entry in its path
/// index; a name that is its own normalized path (most) is read once for both. The hash reads
/// eight bytes a step and mixes them by multiplication (the tables hash the result again with
/// their own seed), about a tenth of what `String.hashValue` costs on a 20-byte path.
struct NameScan {
    let hash: Int
    let isNormalizedPath: Bool

    init(_ text: String) {
        var text = text
        (hash, isNormalizedPath) = text.withUTF8 { Self.scan($0) }
    }

    /// Whether `a` and `b` are the same UTF-8 bytes.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                left.count == right.count && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: Int, isNormalized: Bool) {
        var mixed: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return (Int(truncatingIfNeeded: mixed), false) }
        let raw = UnsafeRawPointer(base)
        // While hashing, each word is also looked at for a slash followed by a slash or a dot
        // (`//`, `/.`): a path with neither, that does not start with a dot or end with a
        // slash, is normalized. Only a path with one (`/.hidden` too) is checked component by
        // component (``AssetPath/isNormalized(_:)``: a `memchr` per component, 244 instructions
        // for a 40-byte path, as much as the hash).
        var irregular: UInt64 = 0
        var slashBefore: UInt64 = 0  // the high bit set when the word before ended with a slash
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            Self.look(at: word, irregular: &irregular, slashBefore: &slashBefore)
            mixed = (mixed ^ word) &* 0x9E37_79B9_7F4A_7C15
            mixed ^= mixed >> 29
            offset += 8
        }
        if offset < bytes.count {
            var word: UInt64 = 0
            for index in offset..<bytes.count { word |= UInt64(base[index]) << UInt64((index - offset) * 8) }
            Self.look(at: word, irregular: &irregular, slashBefore: &slashBefore)  // (zero bytes are neither)
            mixed = (mixed ^ word) &* 0x9E37_79B9_7F4A_7C15
            mixed ^= mixed >> 29
        }
        mixed = (mixed ^ (mixed >> 32)) &* 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 31
        let regular = irregular == 0 && base[0] != UInt8(ascii: ".") && base[bytes.count - 1] != UInt8(ascii: "/")
        return (Int(truncatingIfNeeded: mixed), regular || AssetPath.isNormalized(bytes))
    }

    /// Marks in `irregular` the bytes of `word` (eight bytes of a path, the first lowest) that
    /// are a slash followed by a slash or a dot, the first one's predecessor being the last of
    /// the word before (`slashBefore`, updated for the next word).
    @inline(__always)
    private static func look(at word: UInt64, irregular: inout UInt64, slashBefore: inout UInt64) {
        let slashes = zeroBytes(word ^ 0x2F2F_2F2F_2F2F_2F2F)
        let slashesOrDots = slashes | zeroBytes(word ^ 0x2E2E_2E2E_2E2E_2E2E)
        irregular |= (slashes & (slashesOrDots >> 8)) | (slashBefore & slashesOrDots & 0x80)
        slashBefore = slashes >> 56
    }

    /// The high bit of each byte of `word` that is zero, exactly (no carry crosses bytes).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low = UInt64(0x7F7F_7F7F_7F7F_7F7F)
        return ~(((word & low) &+ low) | word | low)
    }
}
