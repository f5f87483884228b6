import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadTestSupport
import Testing

/// `BakedPackDiff` and `BakedPackPatch` on real packs baked from `sample-assets` twice: the
/// entries that changed are fetched, the others taken from the old pack, and the patched pack
/// is the new pack byte for byte; a damaged range never lands.
@Suite struct BakedPackDiffTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: BakedFixtures.sampleAssets, toPath: directory.file("assets"))
    }

    static let changed = ["sprites/coin.png", "sprites/hero.png", "sprites/slime.png", "tiles/grass_tile.png", "backgrounds/forest.png"]

    /// Bakes `assets` into `old.bake`, then changes 5 textures, adds 1 and removes 1 (the issue's
    /// case) and bakes `new.bake`.
    func bakeTwice() async throws -> (old: String, new: String) {
        let old = directory.file("old.bake"), new = directory.file("new.bake")
        try await BakedFixtures.bake([.folder(directory.file("assets"), name: "assets")], to: old)
        for (number, name) in Self.changed.enumerated() {
            let side = name.hasPrefix("backgrounds") ? 256 : 32
            try directory.write("assets/" + name, PNGFixture.noisePNG(side: side, seed: UInt64(number) + 100))
        }
        try directory.write("assets/sprites/bat.png", PNGFixture.noisePNG(side: 48, seed: 200))
        try FileManager.default.removeItem(atPath: directory.file("assets/masks/light_mask.png"))
        try await BakedFixtures.bake([.folder(directory.file("assets"), name: "assets")], to: new)
        return (old, new)
    }

    static func bytes(_ path: String) throws -> [UInt8] { try Array(Data(contentsOf: URL(fileURLWithPath: path))) }

    static func index(_ path: String) throws -> BakedIndex {
        try FileMapping(path: path).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
    }

    /// The new pack's header and index, as an updater reads them first.
    static func outline(of pack: [UInt8]) throws -> (header: [UInt8], index: [UInt8]) {
        let header = Array(pack[0..<BakedFormat.headerSize])
        let offset = pack.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian) }
        return (header, Array(pack[offset...]))
    }

    static func fetch(_ ranges: [Range<UInt64>], from pack: [UInt8]) -> [BakedPackPatch.Fetched] {
        ranges.map { BakedPackPatch.Fetched(range: $0, bytes: Array(pack[Int($0.lowerBound)..<Int($0.upperBound)])) }
    }

    @Test func fiveChangedOneAddedOneRemovedFetchesOnlyThoseAndPatchesToTheNewPack() async throws {
        let (oldPath, newPath) = try await bakeTwice()
        let newPack = try Self.bytes(newPath), oldPack = try Self.bytes(oldPath)
        let outline = try Self.outline(of: newPack)
        let newIndex = try outline.header.withUnsafeBytes { head in
            try outline.index.withUnsafeBytes { try BakedIndex(header: head, index: $0, checksum: BakedChecksum.crc32) }
        }
        let diff = BakedPackDiff(old: try Self.index(oldPath), new: newIndex)
        // The 6 changed and new entries, and the tables that name entries by number after the
        // removed one (docs/bake-format.md, "Stable bakes": here the pack's atlas hud.json).
        let changedAndNew = Set((Self.changed + ["sprites/bat.png"]).map { "assets/" + $0 })
        let renumbered = diff.fetched.filter { !changedAndNew.contains($0.name) }
        #expect(changedAndNew.isSubset(of: diff.fetched.map(\.name)))
        #expect(renumbered.allSatisfy { ["atlas", "font", "tilemap", "animation"].contains(newIndex.entry(named: $0.name)?.kind) }, "\(renumbered)")
        #expect(diff.reused.count == newIndex.entries.count - 6 - renumbered.count)
        #expect(diff.packLength == UInt64(newPack.count) && diff.outlineBytes == UInt64(64 + outline.index.count))
        // The requests cover every entry to fetch, in order, and move little more than them.
        #expect(zip(diff.requests, diff.requests.dropFirst()).allSatisfy { $0.upperBound + diff.mergeGap < $1.lowerBound })
        let changedAndIndex = diff.fetchedEntryBytes + diff.outlineBytes
        #expect(Double(diff.bytesToMove) <= 1.05 * Double(changedAndIndex), "\(diff.bytesToMove) against \(changedAndIndex)")
        print(
            "BakedPackDiff 5 changed, 1 added, 1 removed: pack \(diff.packLength) bytes, entries fetched \(diff.fetchedEntryBytes),",
            "of which renumbered tables \(renumbered.map(\.target.count).reduce(0, +)), header+index \(diff.outlineBytes), requested \(diff.requestedBytes) in \(diff.requests.count) ranges,",
            "moved \(diff.bytesToMove) (\(String(format: "%.3f", Double(diff.bytesToMove) / Double(changedAndIndex)))x changed+new+index,",
            "\(String(format: "%.1f", 100 * Double(diff.bytesToMove) / Double(diff.packLength)))% of the pack)")
        // Patched in place of the old pack, which a reader still has mapped.
        let mapped = try FileMapping(path: oldPath)
        try BakedPackPatch.apply(
            diff, header: outline.header, index: outline.index, old: oldPath, fetched: Self.fetch(diff.requests, from: newPack), to: oldPath)
        #expect(try Self.bytes(oldPath) == newPack)
        #expect(mapped.withUnsafeBytes { Array($0) } == oldPack)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func aDamagedRangeNeverLandsAndNamesItsEntry() async throws {
        let (oldPath, newPath) = try await bakeTwice()
        var newPack = try Self.bytes(newPath)
        let oldPack = try Self.bytes(oldPath)
        let outline = try Self.outline(of: newPack)
        let diff = BakedPackDiff(old: try Self.index(oldPath), new: try Self.index(newPath))
        let victim = try #require(diff.fetched.first { $0.name == "assets/sprites/hero.png" })
        newPack[Int(victim.target.lowerBound) + victim.target.count / 2] ^= 0x40
        let error = #expect(throws: BakedPatchError.self) {
            try BakedPackPatch.apply(
                diff, header: outline.header, index: outline.index, old: oldPath, fetched: Self.fetch(diff.requests, from: newPack), to: oldPath)
        }
        guard case .entryDamaged(let entry, let expected, _) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(entry == victim.name && expected == victim.checksum)
        #expect("\(error!)".contains("assets/sprites/hero.png") && error?.category == .corrupt)
        #expect(try Self.bytes(oldPath) == oldPack)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func aMissingRangeAChangedOldPackAndAnotherPacksIndexFailByName() async throws {
        let (oldPath, newPath) = try await bakeTwice()
        let newPack = try Self.bytes(newPath)
        let outline = try Self.outline(of: newPack)
        let diff = BakedPackDiff(old: try Self.index(oldPath), new: try Self.index(newPath), mergingGapsUpTo: 0)
        let target = directory.file("patched.bake")
        let fetched = Self.fetch(diff.requests, from: newPack)
        // A range left out.
        let missing = #expect(throws: BakedPatchError.self) {
            try BakedPackPatch.apply(
                diff, header: outline.header, index: outline.index, old: oldPath, fetched: Array(fetched.dropFirst()), to: target)
        }
        #expect(missing == .missingBytes(entry: diff.fetched[0].name))
        // An entry of the old pack damaged since its index was read.
        var oldPack = try Self.bytes(oldPath)
        let reused = try #require(diff.reused.first { $0.old!.count > 16 })
        oldPack[Int(reused.old!.lowerBound) + 3] ^= 1
        try Data(oldPack).write(to: URL(fileURLWithPath: directory.file("damaged-old.bake")))
        let changed = #expect(throws: BakedPatchError.self) {
            try BakedPackPatch.apply(
                diff, header: outline.header, index: outline.index, old: directory.file("damaged-old.bake"), fetched: fetched, to: target)
        }
        #expect(changed == .oldEntryChanged(entry: reused.name))
        // The old pack's own header and index are not the diff's new pack.
        let oldOutline = try Self.outline(of: try Self.bytes(oldPath))
        let other = #expect(throws: BakedPatchError.self) {
            try BakedPackPatch.apply(diff, header: oldOutline.header, index: oldOutline.index, old: oldPath, fetched: fetched, to: target)
        }
        guard case .notTheDiffsPack = other else { Issue.record("\(String(describing: other))"); return }
        // A cut index.
        let cut = #expect(throws: BakedPatchError.self) {
            try BakedPackPatch.apply(diff, header: outline.header, index: Array(outline.index.dropLast()), old: oldPath, fetched: fetched, to: target)
        }
        guard case .newPack(.truncated) = cut else { Issue.record("\(String(describing: cut))"); return }
        #expect(!FileManager.default.fileExists(atPath: target))
        // And whole, it writes the new pack.
        try BakedPackPatch.apply(diff, header: outline.header, index: outline.index, old: oldPath, fetched: fetched, to: target)
        #expect(try Self.bytes(target) == newPack)
    }

    /// Neighbours are merged when the gap between them is at most `mergeGap`: two changed 1 KiB
    /// textures with an unchanged one between are one range by default, two with no gap allowed.
    @Test func neighboursMergeAcrossSmallGaps() async throws {
        func bake(_ seeds: [UInt64], to pack: String) async throws {
            var sources: [AssetRequest] = []
            for (index, seed) in seeds.enumerated() {
                let path = try directory.write("tiny/t\(index).png", PNGFixture.noisePNG(side: 16, seed: seed))
                sources.append(AssetRequest(path: path, name: "t\(index).png"))
            }
            try await BakedFixtures.bake(sources, to: directory.file(pack))
        }
        try await bake([1, 2, 3, 4, 5], to: "a.bake")
        try await bake([1, 12, 3, 14, 5], to: "b.bake")
        let old = try Self.index(directory.file("a.bake")), new = try Self.index(directory.file("b.bake"))
        let merged = BakedPackDiff(old: old, new: new)
        #expect(merged.fetched.map(\.name) == ["t1.png", "t3.png"])
        #expect(merged.requests == [merged.fetched[0].target.lowerBound..<merged.fetched[1].target.upperBound])
        let apart = BakedPackDiff(old: old, new: new, mergingGapsUpTo: 0)
        #expect(apart.requests == apart.fetched.map(\.target))
        #expect(apart.requestedBytes == apart.fetchedEntryBytes && merged.requestedBytes > merged.fetchedEntryBytes)
    }

    /// The index read from the header and index alone is the index read from the whole file.
    @Test func theIndexReadsFromTheHeaderAndIndexAlone() async throws {
        let (_, newPath) = try await bakeTwice()
        let pack = try Self.bytes(newPath)
        let outline = try Self.outline(of: pack)
        let alone = try outline.header.withUnsafeBytes { head in
            try outline.index.withUnsafeBytes { try BakedIndex(header: head, index: $0, checksum: BakedChecksum.crc32) }
        }
        let whole = try Self.index(newPath)
        #expect(alone.header == whole.header && alone.entries.count == whole.entries.count)
        #expect(zip(alone.entries, whole.entries).allSatisfy { $0.name == $1.name && $0.record == $1.record })
        var damaged = outline.index
        damaged[10] ^= 1
        #expect(throws: BakedPackError.damaged("the index's checksum does not match")) {
            try outline.header.withUnsafeBytes { head in
                try damaged.withUnsafeBytes { try BakedIndex(header: head, index: $0, checksum: BakedChecksum.crc32) }
            }
        }
    }
}
