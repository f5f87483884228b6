import Foundation
import Preload
import PreloadTestSupport
import Testing

@testable import PreloadBaked

/// A baked index makes its table of names the first time an entry is looked up by name, not
/// when it is read (reading checks the names are unique with a table it lets go): a batch that
/// reads a whole pack by position (the bulk path) holds none, about 10 bytes an entry. The
/// pack's listing reads each entry's size from the index by position too (no column of sizes,
/// 8 bytes an entry).
@Suite struct BakedIndexLookupTests {
    @Test func theTableOfNamesIsMadeByTheFirstLookupByName() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.smallPack(in: directory)
        let index = try FileMapping(path: pack).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        #expect(!index.holdsNameTable)
        #expect(index.entries.map(\.name) == ["art/a.png", "art/b.png", "art/c.png", "art/notes.txt"])
        #expect(!index.holdsNameTable, "reading entries by position makes none")
        #expect(index.position(of: "art/c.png") == 2 && index.holdsNameTable)
        #expect(index.position(of: "art/d.png") == nil && index.entry(named: "art/notes.txt")?.kind == "data")
    }

    @Test func aPacksListingReadsItsSizesFromTheIndex() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.smallPack(in: directory)
        let index = try FileMapping(path: pack).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        let listed = try #require(try BakedPackLoader().bulkEntries(of: AssetRequest(path: pack)))
        #expect(listed.count == 4 && listed.sizes == index.entries.map { Int64($0.record.dataLength) })
        #expect((0..<4).map(listed.size(at:)) == listed.sizes && (0..<4).map(index.entries.dataLength(at:)) == listed.sizes.map(UInt64.init))
    }

    /// An index read only to load from (the baked-pack loader's) keeps 36 bytes of each 64-byte
    /// record: every entry still reads as the whole index's, but for its source size and
    /// checksum and string ranges, which only checking a pack against its sources reads.
    @Test func anIndexToLoadFromKeepsWhatLoadingReads() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.smallPack(in: directory)
        let (whole, loading) = try FileMapping(path: pack).withUnsafeBytes {
            (try BakedIndex(file: $0, checksum: BakedChecksum.crc32), try BakedIndex(file: $0, checksum: BakedChecksum.crc32, wholeRecords: false))
        }
        #expect(whole.keptRecordBytes == 64 && loading.keptRecordBytes == 36)
        #expect(whole.entries.contains { $0.record.sourceSize != 0 && !$0.record.name.isEmpty })
        for (kept, read) in zip(whole.entries, loading.entries) {
            var expected = kept.record
            (expected.sourceSize, expected.sourceChecksum, expected.name, expected.sourcePath) = (0, 0, 0..<0, 0..<0)
            #expect(read.record == expected)
            #expect(read.name == kept.name && read.sourcePath == kept.sourcePath && read.kind == kept.kind && read.dependencies == kept.dependencies)
        }
    }
}
