import Foundation
import PreloadAuthoring
import Preload
import PreloadPack
import PreloadTestSupport
import Testing

/// Inputs the fuzzer (Fuzz/run pack) found crashing the readers, each now a typed error. A hostile
/// file has correct checksums, so these headers carry them.
@Suite struct HostileInputTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A pack of one text entry, with its header's field at `offset` (8 bytes) set to `value`
    /// and the header checksum made right again.
    func pakWithHeaderField(at offset: Int, set value: UInt64) throws -> String {
        try directory.write("in/a.txt", text: "alpha")
        let pack = directory.file("source.pak")
        try PakWriter.write(try PakWriter.sources(in: directory.file("in")), to: pack)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pack)))
        for byte in 0..<8 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) }
        let crc = CRC32.checksum(Array(bytes[0..<36]))
        for byte in 0..<4 { bytes[36 + byte] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(byte))) }
        return try directory.write("hostile.pak", bytes)
    }

    @Test func anIndexSizeNearTheTopOfItsRangeIsATruncatedIndex() throws {
        // Index size 2^64 - 135: offset + size overflowed while wording the error (a trap).
        let pack = try pakWithHeaderField(at: 24, set: 0xFFFF_FFFF_FFFF_FF79)
        #expect(throws: PackError.truncated("the index ends past the end of the file")) { try PakFile.index(at: pack) }
        let huge = try pakWithHeaderField(at: 16, set: .max)
        #expect(throws: PackError.corruptHeader("index position out of range")) { try PakFile.index(at: huge) }
    }

    @Test func aZip64LocatorPointingPastAnyFileIsACorruptIndex() throws {
        // Found by the fuzzer: the locator's record offset (0x01E7_5973_F574_000A) does not fit
        // off_t, and reading there trapped.
        let zip: [UInt8] = [
            0x50, 0x4B, 0x03, 0x04, 0x2D, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03, 0x93, 0x93,
            0x93, 0x93, 0x50, 0x4B, 0x06, 0x07, 0x00, 0x00, 0x00, 0x00, 0x1C, 0x0A, 0x00, 0x74, 0xF5, 0x73,
            0x59, 0xE7, 0x01, 0x00, 0x00, 0x00, 0x50, 0x4B, 0x05, 0x06, 0x00, 0x00, 0x80, 0x00, 0x07, 0x00,
            0x07, 0x00, 0xEC, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00,
        ]
        let path = try directory.write("locator.zip", zip)
        #expect(throws: PackError.corruptIndex("the zip64 end of central directory record is missing")) {
            try PackIndexReader.index(at: path)
        }
    }

    @Test func offsetsPastOffTAreReadAsTheEndOfTheFile() throws {
        let path = try directory.write("short.bin", [1, 2, 3])
        let file = try OpenFile(path: path)
        #expect(try file.bytes(at: .max - 2, count: 8) == [])
        #expect(try file.bytes(at: UInt64(Int64.max), count: 1) == [])
        #expect(try file.bytes(at: 1, count: 8) == [2, 3])
    }
    /// Review after the fuzzer's findings: sizes from a hostile index, or limits raised to
    /// `Int.max` ("no limit"), multiplied or incremented past the integer range.
    @Test func hostileSizesAndUnlimitedLimitsAreErrorsNotTraps() throws {
        let path = try directory.write("tiny.bin", Array(repeating: 7, count: 64))
        // A stored size of 2^60: 1024 x 2^60 overflowed in the ratio check.
        var entry = PackIndex.Entry(name: "huge", offset: 0, storedSize: 1 << 60, rawSize: 100 << 20, method: .deflate, crc32: 0)
        #expect(throws: PackError.self) { try EntryReader.read(entry, from: path) }
        // With maxEntryBytes = Int.max, a declared size of Int.max made `raw + 1` overflow.
        entry.rawSize = UInt64(Int.max)
        let unlimited = PackLimits(maxEntryBytes: .max, maxInflateRatio: .max, ratioCheckedAbove: .max)
        #expect(throws: PackError.entryTooLarge(entry: "huge", limit: .max - 1)) { try EntryReader.read(entry, from: path, limits: unlimited) }
        // A gzip entry (no declared size) under the same limits: `ceiling + 1` overflowed.
        let gzip = try directory.write("a.gz", try ZipAndGzipTests.gzip(Array("hello".utf8)))
        let member = try #require(try PackIndexReader.index(at: gzip).entries.first)
        #expect(try EntryReader.read(member, from: gzip, limits: unlimited) == Array("hello".utf8))
    }
}
