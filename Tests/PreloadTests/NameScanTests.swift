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
}
