#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One pass over a name's UTF-8 bytes: a 64-bit hash of them, whether the name, read as a
/// path, is already normalized (no empty, `.` or `..` component, no trailing slash; see
/// ``AssetPath/isNormalized(_:)``), and where its last slash is (its folder's end).
///
/// The store keys its tables by this hash and asks whether a name needs an entry in its path
/// index; a name that is its own normalized path (most) is read once for both. The hash reads
/// eight bytes a step and mixes them by multiplication (the tables hash the result again with
/// their own seed), about a tenth of what `String.hashValue` costs on a 20-byte path.
struct NameScan {
    let hash: Int
    let isNormalizedPath: Bool
    /// The offset of the last `/` in the name's UTF-8 bytes; -1 if it has none.
    let lastSlash: Int

    /// Scans `text` where it is (not a copy of it: a copy retains and releases it).
    init(_ text: String) {
        self = Self.withBytes(of: text) { Self(bytes: $0) }
    }

    /// Scans the UTF-8 bytes of a name.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        (hash, isNormalizedPath, lastSlash) = Self.scan(bytes)
    }

    /// Calls `body` with the UTF-8 bytes of `text`, read in place (a text not stored as UTF-8,
    /// bridged from elsewhere: a copy made UTF-8).
    @inline(__always)
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }

    /// Whether `a` and `b` are the same UTF-8 bytes.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        withBytes(of: a) { left in
            withBytes(of: b) { right in
                left.count == right.count && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: Int, isNormalized: Bool, lastSlash: Int) {
        var mixed: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return (Int(truncatingIfNeeded: mixed), false, -1) }
        let raw = UnsafeRawPointer(base)
        // While hashing, each word is also looked at for a slash followed by a slash or a dot
        // (`//`, `/.`): a path with neither, that does not start with a dot or end with a
        // slash, is normalized. Only a path with one (`/.hidden` too) is checked component by
        // component (``AssetPath/isNormalized(_:)``: a `memchr` per component, 244 instructions
        // for a 40-byte path, as much as the hash).
        var irregular: UInt64 = 0
        var slashBefore: UInt64 = 0  // the high bit set when the word before ended with a slash
        // The last word with a slash: its slashes and where it starts (the last slash found
        // from them once, at the end).
        var slashes = (word: UInt64(0), offset: 0)
        var offset = 0
        while offset &+ 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            Self.look(at: word, offset: offset, irregular: &irregular, slashBefore: &slashBefore, slashes: &slashes)
            mixed = (mixed ^ word) &* 0x9E37_79B9_7F4A_7C15
            mixed ^= mixed >> 29
            offset &+= 8
        }
        if offset < bytes.count {
            // The last bytes, the first lowest and zeros above (zero bytes are neither slash nor
            // dot): read as the word ending at the name's end, shifted, where there is one.
            var word: UInt64 = 0
            if bytes.count >= 8 {
                word = raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self) >> UInt64((8 - (bytes.count - offset)) * 8)
            } else {
                for index in offset..<bytes.count { word |= UInt64(base[index]) << UInt64((index - offset) * 8) }
            }
            Self.look(at: word, offset: offset, irregular: &irregular, slashBefore: &slashBefore, slashes: &slashes)
            mixed = (mixed ^ word) &* 0x9E37_79B9_7F4A_7C15
            mixed ^= mixed >> 29
        }
        let lastSlash = slashes.word == 0 ? -1 : slashes.offset &+ (63 &- slashes.word.leadingZeroBitCount) >> 3
        mixed = (mixed ^ (mixed >> 32)) &* 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 31
        let regular = irregular == 0 && base[0] != UInt8(ascii: ".") && base[bytes.count - 1] != UInt8(ascii: "/")
        return (Int(truncatingIfNeeded: mixed), regular || AssetPath.isNormalized(bytes), lastSlash)
    }

    /// Marks in `irregular` the bytes of `word` (eight bytes of a path from `offset`, the first
    /// lowest) that are a slash followed by a slash or a dot, the first one's predecessor being
    /// the last of the word before (`slashBefore`, updated for the next word); keeps the
    /// word's slashes and `offset` in `last` if it has any.
    @inline(__always)
    private static func look(
        at word: UInt64, offset: Int, irregular: inout UInt64, slashBefore: inout UInt64, slashes last: inout (word: UInt64, offset: Int)
    ) {
        let slashes = zeroBytes(word ^ 0x2F2F_2F2F_2F2F_2F2F)
        if slashes != 0 { last = (slashes, offset) }
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
