import Foundation
import Preload
import PreloadBaked
import PreloadTestSupport
import Testing

/// A baked index keeps what every entry shares once (issue 50: a pack of a million entries must
/// not hold a million of each string): an entry is made when read, from its record and its name's
/// bytes, and still answers its name, source path, kind and dependencies as baked.
@Suite struct BakedIndexTablesTests {
    @Test func anEntryHoldsItsRecordAndNoString() {
        // Before: the record, the name, the source path, the kind and the dependencies (56 bytes
        // beside the record, and a source path's heap string per entry); then the record and the
        // name (96 bytes, and the name's heap string). Now an entry is made when read, from the
        // index's copy of its record and its name's bytes: its position and the index's tables
        // beside the record, no string.
        #expect(MemoryLayout<BakedIndex.Entry>.size <= MemoryLayout<BakedFormat.Record>.stride + 16, "\(MemoryLayout<BakedIndex.Entry>.size)")
    }

    @Test func entriesOfAFolderKeepTheirSourcePathsKindsAndNames() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.smallPack(in: directory)
        let index = try FileMapping(path: pack).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        let names = ["art/a.png", "art/b.png", "art/c.png", "art/notes.txt"]
        #expect(index.entries.map(\.name) == names)
        #expect(index.entries.map(\.sourcePath) == names.map { directory.file($0) }, "each as the bake requested it")
        #expect(index.entries.map(\.kind) == ["texture", "texture", "texture", "data"])
        #expect(index.entries.allSatisfy { $0.dependencies.isEmpty })
        #expect(names.map { index.position(of: $0) } == [0, 1, 2, 3])
        #expect(index.entry(named: "art/b.png")?.record.width == 3)
        #expect(index.position(of: "art/d.png") == nil && index.position(of: "art") == nil && index.position(of: "") == nil)
    }

    @Test func atlasPagesKeepTheirAtlasAsSourceAndTheirDependencies() async throws {
        let fixtures = BakedConformanceTests.repository.appendingPathComponent("Tests/PreloadAtlasTests/Fixtures").path
        let atlases = ["folder/chars.atlas", "libgdx/sheet.atlas"]
        let directory = try TemporaryDirectory()
        let pack = directory.file("atlases.bake")
        try await BakedFixtures.bake(atlases.map { AssetRequest(path: fixtures + "/" + $0, name: $0, plugin: "atlas") }, to: pack)
        let index = try FileMapping(path: pack).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        for (position, entry) in index.entries.enumerated() {
            #expect(index.position(of: entry.name) == position, "\(entry.name)")
            // A packed page names its atlas as source (not its folder and its own name).
            if entry.record.bits.contains(.atlasPage) {
                #expect(atlases.map { fixtures + "/" + $0 }.contains(entry.sourcePath), "\(entry.sourcePath)")
            }
        }
        let atlasEntries = index.entries.filter { $0.kind == "atlas" }
        #expect(atlasEntries.map(\.name) == atlases)
        for atlas in atlasEntries {
            #expect(!atlas.dependencies.isEmpty, "\(atlas.name) depends on its pages")
            #expect(atlas.dependencies.allSatisfy { index.entries[$0].kind == "texture" })
        }
    }

    @Test func anExpandedEntrysFactsKeepTheRequestsNameNotACopy() async throws {
        let directory = try TemporaryDirectory()
        let name = "art/a-sprite-with-a-name-longer-than-fifteen-bytes.png"  // a heap string, not an inline one
        try directory.write(name, PNGFixture.rgba(width: 1, height: 1, pixels: [1, 2, 3, 4]))
        let pack = directory.file("long.bake")
        try await BakedFixtures.bake([.folder(directory.file("art"), name: "art")], to: pack)
        let requests = try BakedPackLoader().expand(AssetRequest(path: pack))
        let request = try #require(requests.first)
        #expect(requests.count == 1 && request.name == name)
        let facts = try #require(try AssetFiles(containers: [BakedPackLoader()]).servedFacts(of: request.path, name: request.name))
        let entry = try #require(facts.entry)
        #expect(entry == name)
        // Before: the facts held a second string, cut from the path (64 bytes an entry).
        #expect(Self.storage(of: entry) == Self.storage(of: request.name), "the entry's facts share the request's name")
    }

    private static func storage(of text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }
}
