import Testing

@testable import Preload

/// The store's one pass over a name (``NameScan``) tells a normalized path from the rest while
/// hashing, eight bytes a step: it must agree with ``AssetPath/isNormalized(_:)`` on every path,
/// whatever word boundary a slash or a dot falls on.
@Suite struct NameScanTests {
    @Test func tellsNormalizedPathsAsAssetPathDoesOnEveryShortPath() {
        var paths = [""]
        var checked = 0
        while let path = paths.popLast() {
            // Shifted by 0 to 7 bytes, so that each pair of bytes also straddles two words.
            for shifted in [path, "a/" + path, "abcdefg" + path, "abcdef/" + path, "ab/cdefghijklm" + path] {
                #expect(NameScan(shifted).isNormalizedPath == AssetPath.isNormalized(shifted), "\(shifted)")
            }
            checked += 1
            if path.count < 9 { paths += ["a", ".", "/"].map { path + $0 } }
        }
        #expect(checked == 29524)
        #expect(NameScan("/tmp/sprites/.hidden/hero.png").isNormalizedPath && !NameScan("/tmp/sprites/./hero.png").isNormalizedPath)
    }

    /// Equal bytes hash alike; the hash and the answer do not depend on anything but the bytes.
    @Test func hashesTheBytes() {
        let path = "/tmp/issue50/tiny/000/tiny_00000.png"
        let rebuilt = String(decoding: Array(path.utf8), as: UTF8.self)  // the same bytes, another string
        #expect(NameScan(path).hash == NameScan(rebuilt).hash)
        #expect(NameScan(path).hash != NameScan(path + "x").hash)
    }

    /// The last slash (where the store takes a file's folder from) is found in every word, the
    /// last one too, read as the word ending at the name's end.
    @Test func findsTheLastSlashWhereverItFalls() {
        for length in 0...40 {
            for slash in [-1] + Array(0..<length) {
                let bytes = (0..<length).map { $0 == slash ? UInt8(ascii: "/") : UInt8(ascii: "a") + UInt8($0 % 26) }
                let name = String(decoding: bytes, as: UTF8.self)
                #expect(NameScan(name).lastSlash == slash, "\(name)")
            }
        }
        #expect(NameScan("a/b/c").lastSlash == 3 && NameScan("/tmp/issue50/tiny/000/tiny_00000.png").lastSlash == 21)
    }

    /// Each byte counts, the last ones too (read as the word ending at the name's end, shifted:
    /// none dropped, none read twice as another byte).
    @Test func everyByteChangesTheHash() {
        for length in 1...40 {
            let base = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            var hashes: Set<Int> = [NameScan(String(decoding: base, as: UTF8.self)).hash]
            for position in 0..<length {
                var changed = base
                changed[position] = UInt8(ascii: "b")
                hashes.insert(NameScan(String(decoding: changed, as: UTF8.self)).hash)
            }
            #expect(hashes.count == length + 1, "length \(length)")
        }
    }
}
