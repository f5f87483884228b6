import Foundation
import Preload
import PreloadBaked
import PreloadTestSupport
import Testing

/// `preload bake` is stable (docs/bake-format.md, "Stable bakes"): the same sources give the same
/// bytes whatever the number of jobs, and a change to some sources leaves every other entry's
/// bytes as they were, wherever the entries now lie.
@Suite struct StableBakeTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: PackLoadCommandTests.sampleAssets, toPath: directory.file("assets"))
    }

    func bake(_ arguments: [String], to pack: String) async throws -> [UInt8] {
        let run = try await CommandRunner.preload(["bake"] + arguments + ["-o", pack, "--quiet"], in: directory.path)
        try #require(run.status == 0, "\(run.stderr)")
        return try Array(Data(contentsOf: URL(fileURLWithPath: directory.file(pack))))
    }

    /// Each entry's length and CRC-32 by name, and its kind.
    func entries(_ pack: String) throws -> [String: (length: UInt64, checksum: UInt32, kind: String)] {
        let index = try FileMapping(path: directory.file(pack)).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        var entries: [String: (length: UInt64, checksum: UInt32, kind: String)] = [:]
        for entry in index.entries { entries[entry.name] = (entry.record.dataLength, entry.record.dataChecksum, entry.kind) }
        return entries
    }

    @Test func theSameSourcesBakeToTheSameBytesWhateverTheJobs() async throws {
        let first = try await bake(["assets", "--jobs", "1"], to: "one.bake")
        #expect(first.count > 1_000_000)
        for (jobs, name) in [("2", "two.bake"), ("4", "four.bake"), ("2", "again.bake")] {
            let other = try await bake(["assets", "--jobs", jobs], to: name)
            #expect(other == first, "--jobs \(jobs) baked other bytes")
        }
    }

    @Test func aGPUBakeIsTheSameWhateverTheJobs() async throws {
        let first = try await bake(["assets/sprites", "assets/tiles", "--gpu", "bc", "--no-bake-cache", "--jobs", "1"], to: "one.bake")
        #expect(try entries("one.bake").values.contains { $0.kind == "gpuTexture" })
        let other = try await bake(["assets/sprites", "assets/tiles", "--gpu", "bc", "--no-bake-cache", "--jobs", "2"], to: "two.bake")
        #expect(other == first)
    }

    /// One texture's pixels changed, one added, one removed: every other entry keeps its bytes
    /// (their offsets may move; a patch does not depend on them: ``BakedPackDiff``).
    @Test func anUnrelatedChangeLeavesEveryOtherEntrysBytes() async throws {
        _ = try await bake(["assets"], to: "old.bake")
        try directory.write("assets/sprites/coin.png", PNGFixture.noisePNG(side: 16, seed: 7))
        try directory.write("assets/sprites/zz-new.png", PNGFixture.noisePNG(side: 24, seed: 8))
        try FileManager.default.removeItem(atPath: directory.file("assets/tiles/stone_gray.png"))
        _ = try await bake(["assets"], to: "new.bake")
        let old = try entries("old.bake"), new = try entries("new.bake")
        #expect(Set(old.keys).subtracting(new.keys) == ["assets/tiles/stone_gray.png"])
        #expect(Set(new.keys).subtracting(old.keys) == ["assets/sprites/zz-new.png"])
        var same = 0
        for (name, entry) in new {
            guard let before = old[name] else { continue }
            if name == "assets/sprites/coin.png" {
                #expect(before.checksum != entry.checksum)
                continue
            }
            #expect(before.length == entry.length && before.checksum == entry.checksum, "\(name) (\(entry.kind)) changed")
            same += 1
        }
        #expect(same == old.count - 2)
    }

    /// An entry added before the others renumbers every later entry: the entries that name
    /// others by number (an atlas's, a font's, a map's, an animation's table of pages) change
    /// when their pages' numbers do, and nothing else does.
    @Test func anEntryAddedFirstChangesOnlyTablesThatNameEntriesByNumber() async throws {
        _ = try await bake(["assets"], to: "old.bake")
        try directory.write("assets/aaa-first.png", PNGFixture.noisePNG(side: 8, seed: 9))
        _ = try await bake(["assets"], to: "new.bake")
        let old = try entries("old.bake"), new = try entries("new.bake")
        #expect(Set(new.keys).subtracting(old.keys) == ["assets/aaa-first.png"] && new.count == old.count + 1)
        let namingByNumber: Set<String> = ["atlas", "font", "tilemap", "animation"]
        var changedTables = 0
        for (name, before) in old {
            let after = try #require(new[name])
            if namingByNumber.contains(before.kind) {
                if after.checksum != before.checksum { changedTables += 1 }
                continue
            }
            #expect(after.length == before.length && after.checksum == before.checksum, "\(name) (\(before.kind)) changed")
        }
        #expect(changedTables > 0, "the tables kept their numbers: the added entry was not first")
    }
}
