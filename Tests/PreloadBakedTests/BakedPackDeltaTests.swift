import Foundation
import Preload
import PreloadBaked
import PreloadTestSupport
import Testing

/// Zstandard deltas against a reference (`ZstdLibrary.compress(_:against:level:)`, zstd's
/// `--patch-from`), and the delta files `preload patch` writes (`BakedPackDeltaWriter`,
/// `BakedPackDelta`) on packs baked twice, with 5 textures touched up, 1 added and 1 removed.
@Suite struct BakedPackDeltaTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: BakedFixtures.sampleAssets, toPath: directory.file("assets"))
    }

    /// Bakes `old.bake` with 5 noise textures, then touches each up (a few rows painted over),
    /// adds one and removes one, and bakes `new.bake`.
    static func bakeTwiceTouchedUp(in directory: TemporaryDirectory, assets: String = "assets") async throws -> (old: String, new: String) {
        let names = ["sprites/coin.png", "sprites/hero.png", "sprites/slime.png", "tiles/grass_tile.png", "backgrounds/forest.png"]
        func side(_ name: String) -> Int { name.hasPrefix("backgrounds") ? 256 : 64 }
        for (number, name) in names.enumerated() {
            try directory.write(assets + "/" + name, PNGFixture.noisePNG(side: side(name), seed: UInt64(number) + 500))
        }
        let old = directory.file("old.bake"), new = directory.file("new.bake")
        try await BakedFixtures.bake([.folder(directory.file(assets), name: "assets")], to: old)
        for (number, name) in names.enumerated() {
            try directory.write(assets + "/" + name, PNGFixture.touchedUpNoisePNG(side: side(name), seed: UInt64(number) + 500, rows: 8..<12))
        }
        try directory.write(assets + "/sprites/bat.png", PNGFixture.noisePNG(side: 48, seed: 600))
        try FileManager.default.removeItem(atPath: directory.file(assets + "/masks/light_mask.png"))
        try await BakedFixtures.bake([.folder(directory.file(assets), name: "assets")], to: new)
        return (old, new)
    }

    @Test func aDeltaRoundTripsAgainstItsReferenceAndFailsAgainstAnother() throws {
        let zstd = try ZstdLibrary.get()
        let old = PNGFixture.noise(width: 128, height: 128, seed: 1)
        var new = old
        for index in stride(from: 0, to: new.count, by: 997) { new[index] ^= 0x5A }
        new += PNGFixture.noise(width: 16, height: 16, seed: 2)
        let delta = try new.withUnsafeBytes { input in try old.withUnsafeBytes { try zstd.compress(input, against: $0, level: 19) } }
        let plain = try new.withUnsafeBytes { try zstd.compress($0, level: 19) }
        #expect(delta.count * 10 < plain.count, "delta \(delta.count) bytes, plain \(plain.count)")
        func decompress(_ delta: [UInt8], against reference: [UInt8], capacity: Int) throws -> [UInt8] {
            var output = [UInt8](repeating: 0, count: capacity)
            let count = try delta.withUnsafeBytes { input in
                try reference.withUnsafeBytes { reference in
                    try output.withUnsafeMutableBytes { try zstd.decompress(input, against: reference, into: $0) }
                }
            }
            return Array(output.prefix(count))
        }
        #expect(try decompress(delta, against: old, capacity: new.count + 1) == new)
        // Another reference, a damaged delta, one cut short, too small a buffer: a ZstdFailure each, never a trap.
        let other = PNGFixture.noise(width: 128, height: 128, seed: 3)
        #expect(throws: ZstdFailure.self) { try decompress(delta, against: other, capacity: new.count + 1) }
        var damaged = delta
        damaged[damaged.count / 2] ^= 0xFF
        #expect(throws: ZstdFailure.self) { try decompress(damaged, against: old, capacity: new.count + 1) }
        #expect(throws: ZstdFailure.self) { try decompress(Array(delta.prefix(delta.count - 5)), against: old, capacity: new.count + 1) }
        #expect(throws: ZstdFailure.self) { try decompress(delta, against: old, capacity: new.count - 1) }
        #expect(throws: ZstdFailure.self) { try decompress([1, 2, 3, 4], against: old, capacity: 16) }
        // An empty reference and an empty input.
        let empty: [UInt8] = []
        let alone = try new.withUnsafeBytes { input in try empty.withUnsafeBytes { try zstd.compress(input, against: $0, level: 3) } }
        #expect(try decompress(alone, against: [], capacity: new.count) == new)
        let nothing = try empty.withUnsafeBytes { input in try old.withUnsafeBytes { try zstd.compress(input, against: $0, level: 3) } }
        #expect(try decompress(nothing, against: old, capacity: 1).isEmpty)
    }

    @Test func theDeltaFileHoldsTheTouchedUpEntriesAndRebuildsThem() async throws {
        let (old, new) = try await Self.bakeTwiceTouchedUp(in: directory)
        let written = try BakedPackDeltaWriter.write(old: old, new: new, into: directory.file("published"))
        let oldFile = try FileMapping(path: old), newFile = try FileMapping(path: new)
        let oldHeader = oldFile.withUnsafeBytes(offset: 0, count: 64) { Array($0) }
        #expect(written.path == directory.file("published") + "/new.bake.deltas/" + BakedPackDelta.identity(ofPackHeader: oldHeader))
        let file = try Array(Data(contentsOf: URL(fileURLWithPath: written.path)))
        #expect(UInt64(file.count) == written.fileBytes)
        let delta = try Self.read(file)
        let touched = Set(
            ["coin", "hero", "slime"].map { "assets/sprites/\($0).png" } + ["assets/tiles/grass_tile.png", "assets/backgrounds/forest.png"])
        #expect(touched.isSubset(of: delta.entries.map(\.name)), "\(delta.entries.map(\.name))")
        #expect(
            written.entries == delta.entries.count && written.changedEntries >= written.entries
                && !delta.entries.contains { $0.name == "assets/sprites/bat.png" })
        #expect(written.deltaBytes * 10 < written.entryBytes, "\(written.deltaBytes) against \(written.entryBytes)")
        print(
            "BakedPackDeltaWriter: \(written.entries) of \(written.changedEntries) changed entries as deltas, \(written.deltaBytes) bytes instead of \(written.entryBytes)"
        )
        // Each delta rebuilds its entry against the old one, and only against it.
        let oldIndex = try oldFile.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        let newIndex = try newFile.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        for entry in delta.entries {
            let reference = try #require(oldIndex.entry(named: entry.reference)?.record),
                target = try #require(newIndex.entry(named: entry.name)?.record)
            let rebuilt = try file.withUnsafeBytes { bytes in
                try oldFile.withUnsafeBytes(offset: Int(reference.dataOffset), count: Int(reference.dataLength)) {
                    try BakedPackDelta.rebuild(
                        entry, delta: UnsafeRawBufferPointer(rebasing: bytes[Int(entry.delta.lowerBound)..<Int(entry.delta.upperBound)]), against: $0)
                }
            }
            #expect(newFile.withUnsafeBytes(offset: Int(target.dataOffset), count: Int(target.dataLength)) { Array($0) } == rebuilt)
            #expect(throws: BakedDeltaError.wrongReference(entry: entry.name)) {
                try file.withUnsafeBytes { bytes in
                    try newFile.withUnsafeBytes(offset: Int(target.dataOffset), count: Int(target.dataLength)) {
                        try BakedPackDelta.rebuild(
                            entry, delta: UnsafeRawBufferPointer(rebasing: bytes[Int(entry.delta.lowerBound)..<Int(entry.delta.upperBound)]),
                            against: $0)
                    }
                }
            }
        }
        // A damaged delta fails by its entry's name; damaged records fail their CRC-32.
        let first = try #require(delta.entries.first)
        var damaged = file
        damaged[Int(first.delta.lowerBound) + first.delta.count / 2] ^= 0xFF
        let reference = try #require(oldIndex.entry(named: first.reference)?.record)
        #expect {
            try damaged.withUnsafeBytes { bytes in
                try oldFile.withUnsafeBytes(offset: Int(reference.dataOffset), count: Int(reference.dataLength)) {
                    try BakedPackDelta.rebuild(
                        first, delta: UnsafeRawBufferPointer(rebasing: bytes[Int(first.delta.lowerBound)..<Int(first.delta.upperBound)]), against: $0)
                }
            }
        } throws: { error in
            guard case BakedDeltaError.entryDamaged(let name, _) = error else { return false }
            return name == first.name
        }
        var records = file
        records[BakedPackDelta.headerSize + 2] ^= 0xFF
        #expect(throws: BakedDeltaError.damaged("the records' CRC-32 does not match")) { try Self.read(records) }
        #expect(throws: BakedDeltaError.self) { try Self.read(Array(repeating: 0, count: 200)) }
    }

    @Test func notAPackADamagedPackAndAnUnwritableFolderFailByName() async throws {
        let (old, new) = try await Self.bakeTwiceTouchedUp(in: directory)
        let text = try directory.write("notes.bake", Array("not a pack at all, just words".utf8))
        #expect(throws: BakedDeltaError.pack(text, .notABakedPack)) {
            try BakedPackDeltaWriter.write(old: text, new: new, into: directory.file("out"))
        }
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: new)))
        bytes[bytes.count - 10] ^= 0xFF
        let damaged = try directory.write("damaged.bake", bytes)
        #expect {
            try BakedPackDeltaWriter.write(old: old, new: damaged, into: directory.file("out"))
        } throws: { error in
            guard case BakedDeltaError.pack(let path, .damaged) = error else { return false }
            return path == damaged && "\(error)".hasPrefix(damaged)
        }
        _ = try directory.write("file", [1])
        #expect {
            try BakedPackDeltaWriter.write(old: old, new: new, into: directory.file("file"))
        } throws: { error in
            guard case BakedDeltaError.cannotWrite(let detail) = error else { return false }
            return detail.hasPrefix(directory.file("file") + "/new.bake.deltas/")
        }
        #expect(throws: BakedDeltaError.self) {
            try BakedPackDeltaWriter.write(old: directory.file("missing.bake"), new: new, into: directory.file("out"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("out")))
    }

    /// A delta file's outline read from its bytes.
    static func read(_ file: [UInt8]) throws -> BakedPackDelta {
        try file.withUnsafeBytes { bytes in
            let length = try BakedPackDelta.recordsLength(inHeader: bytes)
            return try BakedPackDelta(
                header: UnsafeRawBufferPointer(rebasing: bytes[0..<BakedPackDelta.headerSize]),
                records: UnsafeRawBufferPointer(rebasing: bytes[BakedPackDelta.headerSize..<BakedPackDelta.headerSize + Int(length)]))
        }
    }
}
