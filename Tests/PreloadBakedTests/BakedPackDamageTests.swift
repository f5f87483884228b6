import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Bad baked packs: each gives a typed error naming the file (or the one entry) and its cause,
/// never a crash, a trap or a hang, and one bad entry never stops the others.
///
/// Most cases take a real pack apart (``PackSurgery``), change one thing, and put it back
/// together with fresh index and header checksums, so that the check under test is the one
/// that fires, not the checksum; a hostile pack has correct checksums too.
@Suite struct BakedPackDamageTests {
    // MARK: Cut files

    @Test(arguments: CutPoint.allCases)
    func aTruncatedPackFailsByItsPathAsTruncated(_ cut: CutPoint) async throws {
        let directory = try TemporaryDirectory()
        let bytes = try await Self.smallPackBytes(in: directory)
        let surgery = PackSurgery(bytes)
        let length = cut.length(of: bytes.count, indexOffset: surgery.indexOffset)
        #expect(length > 0 && length < bytes.count)
        let (pack, report) = try await Self.load(Array(bytes.prefix(length)), in: directory)
        let error = try Self.expectPackFails(report, pack: pack, .truncated, "truncated baked pack")
        switch cut {
        case .insideMagic, .insideHeader:
            #expect(error.reason.contains("fewer than a header's 64"), "\(error.reason)")
        case .insideEntryData, .insideIndex, .lastByte:
            #expect(error.reason.contains("the header says \(bytes.count) bytes, the file has \(length)"), "\(error.reason)")
        }
    }

    @Test func anEmptyFileIsATruncatedPack() async throws {
        let directory = try TemporaryDirectory()
        let (pack, report) = try await Self.load([], in: directory)
        try Self.expectPackFails(report, pack: pack, .truncated, "the file has 0 bytes")
    }

    @Test func aLongerFileThanTheHeaderSaysIsDamaged() async throws {
        let directory = try TemporaryDirectory()
        let bytes = try await Self.smallPackBytes(in: directory)
        let (pack, report) = try await Self.load(bytes + [0], in: directory)
        try Self.expectPackFails(
            report, pack: pack, .corrupt, "damaged baked pack: the header says \(bytes.count) bytes, the file has \(bytes.count + 1)")
    }

    // MARK: Not a pack of this version

    @Test func aPNGRenamedBakeIsNotABakedPack() async throws {
        let directory = try TemporaryDirectory()
        let png = PNGFixture.rgba(width: 2, height: 2, pixels: Array(repeating: 0x40, count: 16))
        let (pack, report) = try await Self.load(png, in: directory)
        try Self.expectPackFails(report, pack: pack, .unsupported, "not a baked pack")
    }

    @Test func aShortFileThatIsNotAPackIsNotABakedPackRatherThanTruncated() async throws {
        let directory = try TemporaryDirectory()
        let (pack, report) = try await Self.load(Array("hello".utf8), in: directory)
        try Self.expectPackFails(report, pack: pack, .unsupported, "not a baked pack")
    }

    @Test func anUnknownVersionIsUnsupportedAndNamed() async throws {
        let directory = try TemporaryDirectory()
        var bytes = try await Self.smallPackBytes(in: directory)
        bytes.storeLittleEndian(UInt32(7), at: 8)
        PackSurgery.resealHeader(&bytes)
        let (pack, report) = try await Self.load(bytes, in: directory)
        let error = try Self.expectPackFails(report, pack: pack, .unsupported, "baked pack version 7")
        #expect(error.reason.contains("reads versions 1 to \(BakedFormat.version)"), "\(error.reason)")
    }

    // MARK: Checksums

    @Test func aFlippedByteInTheIndexIsDamaged() async throws {
        let directory = try TemporaryDirectory()
        var bytes = try await Self.smallPackBytes(in: directory)
        let surgery = PackSurgery(bytes)
        bytes[surgery.indexOffset + 8] ^= 0x01  // the first entry's data length; checksums left alone
        let (pack, report) = try await Self.load(bytes, in: directory)
        try Self.expectPackFails(report, pack: pack, .corrupt, "damaged baked pack: the index's checksum does not match")
    }

    /// A version the header's checksum does not vouch for is damage, not a newer pack.
    @Test func aFlippedVersionByteIsDamagedNotANewerVersion() async throws {
        let directory = try TemporaryDirectory()
        var bytes = try await Self.smallPackBytes(in: directory)
        bytes[8] ^= 0x05  // version 2 becomes 7; the checksum left alone
        let (pack, report) = try await Self.load(bytes, in: directory)
        let error = try Self.expectPackFails(report, pack: pack, .corrupt, "damaged baked pack: the header's checksum does not match")
        #expect(error.reason.contains("its version field, 7, is not to be trusted"), "\(error)")
    }

    @Test(arguments: [12, 24, 40, 52])  // flags, index offset, entry count, a reserved byte
    func aFlippedByteInTheHeaderIsDamaged(_ offset: Int) async throws {
        let directory = try TemporaryDirectory()
        var bytes = try await Self.smallPackBytes(in: directory)
        bytes[offset] ^= 0x10
        let (pack, report) = try await Self.load(bytes, in: directory)
        try Self.expectPackFails(report, pack: pack, .corrupt, "damaged baked pack: the header's checksum does not match")
    }

    /// What `.indexOnly` trusts: the entries' bytes. The header and index are still checked; an
    /// entry's damaged bytes are handed out as they are, which is the point of trusting a pack
    /// (a signed build): its pages are not read until they are used.
    @Test func aFlippedByteInOneEntryFailsThatEntryAloneUnlessThePackIsTrusted() async throws {
        let directory = try TemporaryDirectory()
        var bytes = try await Self.smallPackBytes(in: directory)
        let surgery = PackSurgery(bytes)
        let b = try #require(surgery.position(of: "art/b.png"))
        let offset = Int(surgery.field(UInt64.self, record: b, at: 0))
        bytes[offset + 5] ^= 0xFF

        let (pack, report) = try await Self.load(bytes, in: directory)
        #expect(report.errors.count == 1, "\(report.errors)")
        let error = try #require(report.errors.first)
        #expect(error.path == pack + "#art/b.png")
        #expect(error.category == .corrupt)
        #expect(error.reason.contains("entry 'art/b.png': its checksum does not match"), "\(error.reason)")
        #expect(report.results.map(\.request.name) == ["art/a.png", "art/b.png", "art/c.png", "art/notes.txt"])
        for name in ["art/a.png", "art/c.png", "art/notes.txt"] {
            let result = try #require(report.results.first { $0.request.name == name })
            #expect(result.outcome.asset != nil, "\(name) loads: \(String(describing: result.outcome.error))")
        }

        let trusting = try BakedFixtures.coordinator(baked: BakedPackLoader(verification: .indexOnly))
        let trusted = try await trusting.preload([AssetRequest(path: pack)])
        #expect(trusted.everythingLoaded, "\(trusted.errors)")
        let texture = try #require(trusting.assets.texture(named: "art/b.png"))
        #expect(texture.pixels.withUnsafeBytes { Array($0) } == Array(bytes[offset..<offset + 12]), "the damaged bytes, as they are")
        #expect(texture.pixels.withUnsafeBytes { $0[5] } == UInt8(5) ^ 0xFF)
    }

    // MARK: An index that contradicts the file

    @Test func anIndexOutsideTheFileIsCorrupt() async throws {
        let directory = try TemporaryDirectory()
        let bytes = try await Self.smallPackBytes(in: directory)
        let indexOffset = UInt64(PackSurgery(bytes).indexOffset)
        let cases: [(offset: UInt64, length: UInt64)] = [
            (UInt64(bytes.count) + 8, 64),  // past the end
            (indexOffset, UInt64(bytes.count)),  // starts inside, ends past the end
            (indexOffset, UInt64.max - 8),  // offset + length wraps UInt64
            (UInt64.max - 4, 16),  // so does this
            (8, 64),  // inside the header
        ]
        for (number, (offset, length)) in cases.enumerated() {
            var damaged = bytes
            damaged.storeLittleEndian(offset, at: 24)
            damaged.storeLittleEndian(length, at: 32)
            PackSurgery.resealHeader(&damaged)
            let (pack, report) = try await Self.load(damaged, in: directory, name: "index-\(number).bake")
            try Self.expectPackFails(
                report, pack: pack, .corrupt, "malformed baked pack: the index (\(offset) + \(length) bytes) lies outside the file")
        }
    }

    @Test func anIndexTooShortForItsEntriesIsCorrupt() async throws {
        let directory = try TemporaryDirectory()
        var bytes = try await Self.smallPackBytes(in: directory)
        bytes.storeLittleEndian(UInt32(1_000_000), at: 40)  // entries
        PackSurgery.resealHeader(&bytes)
        let (pack, report) = try await Self.load(bytes, in: directory)
        try Self.expectPackFails(report, pack: pack, .corrupt, "too short for 1000000 entries")
    }

    @Test func anEntryWhoseDataLiesOutsideTheDataAreaIsCorrupt() async throws {
        let directory = try TemporaryDirectory()
        let surgery = PackSurgery(try await Self.smallPackBytes(in: directory))
        let a = try #require(surgery.position(of: "art/a.png"))
        let indexOffset = UInt64(surgery.indexOffset)
        // Inside the header; reaching into the index; past the end of the file.
        for (number, offset) in [UInt64(0), UInt64(32), indexOffset - 8, indexOffset, UInt64(1) << 40].enumerated() {
            var damaged = surgery
            damaged.set(offset, record: a, at: 0)
            let (pack, report) = try await Self.load(damaged.sealed(), in: directory, name: "outside-\(number).bake")
            try Self.expectPackFails(
                report, pack: pack, .corrupt, "entry 'art/a.png': its data (\(offset) + 16 bytes) lies outside the data area")
        }
    }

    @Test func entriesWhoseDataOverlapAreCorrupt() async throws {
        let directory = try TemporaryDirectory()
        var surgery = PackSurgery(try await Self.smallPackBytes(in: directory))
        let a = try #require(surgery.position(of: "art/a.png")), b = try #require(surgery.position(of: "art/b.png"))
        surgery.set(surgery.field(UInt64.self, record: a, at: 0) + 4, record: b, at: 0)  // b starts inside a's 16 bytes
        let (pack, report) = try await Self.load(surgery.sealed(), in: directory)
        try Self.expectPackFails(report, pack: pack, .corrupt, "entries 'art/a.png' and 'art/b.png' overlap")
    }

    @Test func anOffsetPlusLengthThatWrapsIsCorrupt() async throws {
        let directory = try TemporaryDirectory()
        var surgery = PackSurgery(try await Self.smallPackBytes(in: directory))
        let notes = try #require(surgery.position(of: "art/notes.txt"))
        surgery.set(UInt64(64), record: notes, at: 0)
        surgery.set(UInt64.max - 32, record: notes, at: 8)  // 64 + (2^64 - 33) wraps to 31
        let (pack, report) = try await Self.load(surgery.sealed(), in: directory)
        try Self.expectPackFails(
            report, pack: pack, .corrupt, "entry 'art/notes.txt': its data (64 + \(UInt64.max - 32) bytes) lies outside the data area")
    }

    @Test(arguments: [
        (UInt32.max, UInt32.max, "4294967295x4294967295"),  // width * height * 4 overflows UInt64
        (UInt32(1) << 31, UInt32(1) << 31, "2147483648x2147483648"),  // so does this, to exactly 2^64
        (UInt32(1) << 30, UInt32(4), "1073741824x4"),  // 2^34 bytes: no overflow, only wrong; and wider than Int32
        (UInt32(3), UInt32(2), "3x2"),  // plainly wrong
        (UInt32(0), UInt32(0), "0x0"),
    ])
    func aTextureWhoseSizeDisagreesWithItsDataIsCorrupt(_ width: UInt32, _ height: UInt32, _ size: String) async throws {
        let directory = try TemporaryDirectory()
        var surgery = PackSurgery(try await Self.smallPackBytes(in: directory))
        let a = try #require(surgery.position(of: "art/a.png"))
        surgery.set(width, record: a, at: 48)
        surgery.set(height, record: a, at: 52)
        let (pack, report) = try await Self.load(surgery.sealed(), in: directory)
        // The texture kind reads the record's size (the index holds no kind's rules): that entry fails alone.
        #expect(report.loaded.count == 3, "the other entries load: \(report.errors)")
        let error = try #require(report.errors.first)
        #expect(report.errors.count == 1 && error.path == pack + "#art/a.png" && error.category == .corrupt, "\(error)")
        #expect(error.reason.contains("entry 'art/a.png': a \(size) rgba8 texture is not 16 bytes"), "\(error.reason)")
        #expect(error.underlying is BakedPackError, "a typed error: \(String(describing: error.underlying))")
    }

    @Test func aDependencyThatIsNotAnotherEntryIsCorrupt() async throws {
        let directory = try TemporaryDirectory()
        let surgery = PackSurgery(try await Self.smallPackBytes(in: directory))
        let a = try #require(surgery.position(of: "art/a.png"))
        #expect(surgery.table.isEmpty)
        let cases: [(table: [UInt32], start: UInt32, count: UInt16, reason: String)] = [
            ([99], 0, 1, "entry 'art/a.png': dependency #100 is not another entry"),
            ([UInt32.max], 0, 1, "entry 'art/a.png': dependency #4294967296 is not another entry"),
            ([UInt32(a)], 0, 1, "entry 'art/a.png': dependency #\(a + 1) is not another entry"),  // itself
            ([1], 0, 2, "entry 'art/a.png': its dependencies lie outside the index's table"),
            ([1], 1, 1, "entry 'art/a.png': its dependencies lie outside the index's table"),
            ([1], UInt32.max, 1, "entry \(a + 1): a range in its record overflows"),
        ]
        for (number, (table, start, count, reason)) in cases.enumerated() {
            var damaged = surgery
            damaged.table = table
            damaged.set(start, record: a, at: 56)
            damaged.set(count, record: a, at: 60)
            let (pack, report) = try await Self.load(damaged.sealed(), in: directory, name: "dependency-\(number).bake")
            try Self.expectPackFails(report, pack: pack, .corrupt, reason)
        }
    }

    @Test func twoEntriesOfOneNameAreCorrupt() async throws {
        let directory = try TemporaryDirectory()
        var surgery = PackSurgery(try await Self.smallPackBytes(in: directory))
        let a = try #require(surgery.position(of: "art/a.png")), c = try #require(surgery.position(of: "art/c.png"))
        surgery.set(surgery.field(UInt32.self, record: a, at: 32), record: c, at: 32)
        surgery.set(surgery.field(UInt32.self, record: a, at: 36), record: c, at: 36)
        let (pack, report) = try await Self.load(surgery.sealed(), in: directory)
        try Self.expectPackFails(report, pack: pack, .corrupt, "two entries are named 'art/a.png'")
    }

    @Test(arguments: [
        ("../x", "'../x'"), ("/abs", "'/abs'"), ("a//b", "'a//b'"), ("a/./b", "'a/./b'"), ("a\u{0}b", "'a\\0b'"),
        ("art/..", "'art/..'"), (".", "'.'"), ("a/", "'a/'"),
    ])
    func aNameEscapingThePackIsCorrupt(_ name: String, _ shown: String) async throws {
        let directory = try TemporaryDirectory()
        var surgery = PackSurgery(try await Self.smallPackBytes(in: directory))
        surgery.rename(record: try #require(surgery.position(of: "art/b.png")), to: Array(name.utf8))
        let (pack, report) = try await Self.load(surgery.sealed(), in: directory)
        try Self.expectPackFails(report, pack: pack, .corrupt, "the entry name \(shown) would leave the pack")
    }

    @Test func anEmptyOrNonUTF8NameIsCorrupt() async throws {
        let directory = try TemporaryDirectory()
        let surgery = PackSurgery(try await Self.smallPackBytes(in: directory))
        let b = try #require(surgery.position(of: "art/b.png"))
        let cases: [(name: [UInt8], reason: String)] = [
            ([], "malformed baked pack: entry \(b + 1) has an empty name"),
            ([0x61, 0xFF, 0x62], "malformed baked pack: entry \(b + 1)'s name is not UTF-8"),
        ]
        for (number, (name, reason)) in cases.enumerated() {
            var damaged = surgery
            damaged.rename(record: b, to: name)
            let (pack, report) = try await Self.load(damaged.sealed(), in: directory, name: "name-\(number).bake")
            try Self.expectPackFails(report, pack: pack, .corrupt, reason)
        }
    }

    @Test func aNameOrKindOutsideWhatTheIndexHoldsIsCorrupt() async throws {
        let directory = try TemporaryDirectory()
        let surgery = PackSurgery(try await Self.smallPackBytes(in: directory))
        let c = try #require(surgery.position(of: "art/c.png"))
        var name = surgery, source = surgery, wrapping = surgery, kind = surgery
        name.set(UInt32(surgery.strings.count), record: c, at: 32)
        source.set(UInt32(1) << 20, record: c, at: 44)
        wrapping.set(UInt32.max, record: c, at: 40)
        kind.index(record: c) { $0[62] = 9 }
        let cases = [
            (name, "entry \(c + 1)'s name lies outside the index"),
            (source, "entry \(c + 1)'s source path lies outside the index"),
            (wrapping, "entry \(c + 1): a range in its record overflows"),
            (kind, "entry \(c + 1) has an unknown kind (9)"),
        ]
        for (number, (damaged, reason)) in cases.enumerated() {
            let (pack, report) = try await Self.load(damaged.sealed(), in: directory, name: "record-\(number).bake")
            try Self.expectPackFails(report, pack: pack, .corrupt, reason)
        }
    }

    // MARK: Writing never leaves half a pack

    @Test func aBakeThatCannotBeWrittenThrowsAndLeavesNoTemporaryFile() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("art/a.png", PNGFixture.rgba(width: 1, height: 1, pixels: [1, 2, 3, 4]))
        let report = try await BakedFixtures.coordinator().preload(
            [AssetRequest(path: directory.file("art/a.png"), name: "a.png")], options: PreloadOptions(storesAssets: false))
        #expect(report.everythingLoaded)

        // A "folder" that is a file: no one, root included, can make a file in it.
        try directory.write("blocked", text: "a file, not a folder")
        let underFile = directory.file("blocked/level.bake")
        #expect(throws: AtomicFile.WriteError.self) { try BakeWriter.write(report, to: underFile) }
        #expect(try String(contentsOfFile: directory.file("blocked"), encoding: .utf8) == "a file, not a folder")

        // A read-only folder (which does not stop root, so only checked as another user).
        let readOnly = directory.file("read-only")
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: false)
        chmod(readOnly, 0o555)
        defer { chmod(readOnly, 0o755) }
        if geteuid() != 0 {
            let error = #expect(throws: AtomicFile.WriteError.self) { try BakeWriter.write(report, to: readOnly + "/level.bake") }
            #expect(error?.path == readOnly + "/level.bake")
            #expect(try FileManager.default.contentsOfDirectory(atPath: readOnly).isEmpty, "no temporary file, no pack")
        }
        #expect(!FileManager.default.fileExists(atPath: underFile))

        // A destination that is a folder: the temporary file is written whole and then cannot
        // be renamed over it. It is removed, and the folder is untouched.
        try directory.write("occupied.bake/kept.txt", text: "kept")
        let occupied = directory.file("occupied.bake")
        let renameError = #expect(throws: AtomicFile.WriteError.self) { try BakeWriter.write(report, to: occupied) }
        #expect(renameError?.path == occupied)
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied) == ["kept.txt"])

        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["art", "blocked", "occupied.bake", "read-only"],
            "no temporary file is left beside any destination")
    }

    @Test func aBakeWhoseSourceFailedWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("art/a.png", PNGFixture.rgba(width: 1, height: 1, pixels: [1, 2, 3, 4]))
        try directory.write("art/broken.png", Array(PNGFixture.rgba(width: 4, height: 4, pixels: Array(repeating: 9, count: 64)).prefix(40)))
        let report = try await BakedFixtures.coordinator().preload(
            [.folder(directory.file("art"), name: "art")], options: PreloadOptions(storesAssets: false))
        #expect(report.errors.map(\.path) == [directory.file("art/broken.png")])
        let pack = directory.file("out/level.bake")
        let error = #expect(throws: BakeWriter.BakeError.self) { try BakeWriter.write(report, to: pack) }
        guard case .sourcesFailed(let errors)? = error else {
            Issue.record("expected sourcesFailed, got \(String(describing: error))")
            return
        }
        #expect(errors.map(\.path) == [directory.file("art/broken.png")])
        #expect(!FileManager.default.fileExists(atPath: pack))
        #expect(!FileManager.default.fileExists(atPath: directory.file("out")), "not even its folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["art"])
    }

    // MARK: Helpers

    /// Where a pack is cut.
    enum CutPoint: CaseIterable, CustomTestStringConvertible, Sendable {
        case insideMagic, insideHeader, insideEntryData, insideIndex, lastByte

        func length(of size: Int, indexOffset: Int) -> Int {
            switch self {
            case .insideMagic: 5
            case .insideHeader: 40
            case .insideEntryData: BakedFormat.headerSize + 7
            case .insideIndex: indexOffset + 70
            case .lastByte: size - 1
            }
        }

        var testDescription: String { "\(self)" }
    }

    /// The bytes of ``BakedFixtures/smallPack(in:)``.
    static func smallPackBytes(in directory: TemporaryDirectory) async throws -> [UInt8] {
        let pack = try await BakedFixtures.smallPack(in: directory)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: pack)))
    }

    /// Writes `bytes` as `name` in `directory` and loads it as a pack with a fresh coordinator.
    static func load(
        _ bytes: [UInt8], in directory: TemporaryDirectory, name: String = "damaged.bake", baked: BakedPackLoader = BakedPackLoader()
    ) async throws -> (pack: String, report: PreloadReport) {
        let pack = try directory.write(name, bytes)
        let report = try await BakedFixtures.coordinator(baked: baked).preload([AssetRequest(path: pack)])
        return (pack, report)
    }

    /// Expects the pack as a whole to have failed, by its path, with `category` and a reason
    /// containing `reason`; returns the error.
    @discardableResult
    static func expectPackFails(
        _ report: PreloadReport, pack: String, _ category: AssetError.Category, _ reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> AssetError {
        #expect(report.results.count == 1, "nothing but the pack's failure: \(report.results.map(\.request.path))", sourceLocation: sourceLocation)
        #expect(report.errors.count == 1, "\(report.errors)", sourceLocation: sourceLocation)
        let error = try #require(report.errors.first, sourceLocation: sourceLocation)
        #expect(error.path == pack, sourceLocation: sourceLocation)
        #expect(error.category == category, "\(error)", sourceLocation: sourceLocation)
        #expect(error.reason.contains(reason), "\(error.reason)", sourceLocation: sourceLocation)
        #expect(error.underlying is BakedPackError, "a typed error: \(String(describing: error.underlying))", sourceLocation: sourceLocation)
        return error
    }
}

/// A baked pack taken apart: its data area, index records, dependency table and strings, to be
/// changed and put back together with the header and index checksums a writer would give them.
struct PackSurgery {
    var flags: UInt32
    /// Where the metadata (the table of kinds, the warnings) is in the strings.
    var metadata: Range<UInt32>
    /// The header's version.
    var version: UInt32
    /// Bytes from the end of the header to the index.
    var dataArea: [UInt8]
    var records: [[UInt8]]
    var table: [UInt32]
    var strings: [UInt8]

    init(_ bytes: [UInt8]) {
        flags = bytes.littleEndian(at: 12)
        version = bytes.littleEndian(at: 8)
        let metadataStart: UInt32 = bytes.littleEndian(at: 52)
        metadata = metadataStart..<metadataStart + bytes.littleEndian(at: 56)
        let indexOffset = Int(bytes.littleEndian(at: 24, as: UInt64.self))
        let count = Int(bytes.littleEndian(at: 40, as: UInt32.self))
        let dependencies = Int(bytes.littleEndian(at: 48, as: UInt32.self))
        dataArea = Array(bytes[BakedFormat.headerSize..<indexOffset])
        records = (0..<count).map { Array(bytes[indexOffset + $0 * 64..<indexOffset + $0 * 64 + 64]) }
        let tableStart = indexOffset + count * 64
        table = (0..<dependencies).map { bytes.littleEndian(at: tableStart + $0 * 4) }
        strings = Array(bytes[(tableStart + dependencies * 4)...])
    }

    var indexOffset: Int { BakedFormat.headerSize + dataArea.count }

    /// The record whose name is `name`.
    func position(of name: String) -> Int? {
        records.indices.first { record in
            let start = Int(field(UInt32.self, record: record, at: 32)), count = Int(field(UInt32.self, record: record, at: 36))
            return Array(strings[start..<start + count]) == Array(name.utf8)
        }
    }

    func field<T: FixedWidthInteger>(_ type: T.Type, record: Int, at offset: Int) -> T { records[record].littleEndian(at: offset) }

    mutating func set<T: FixedWidthInteger>(_ value: T, record: Int, at offset: Int) {
        records[record].storeLittleEndian(value, at: offset)
    }

    mutating func index(record: Int, _ change: (inout [UInt8]) -> Void) { change(&records[record]) }

    /// Gives record `record` the name `name` (new bytes at the end of the strings).
    mutating func rename(record: Int, to name: [UInt8]) {
        set(UInt32(strings.count), record: record, at: 32)
        set(UInt32(name.count), record: record, at: 36)
        strings += name
    }

    /// The pack, with a header and checksums that agree with what it holds.
    func sealed() -> [UInt8] {
        var index = records.flatMap { $0 }
        for value in table { index.storeLittleEndian(value, at: index.count) }
        index += strings
        let header = BakedFormat.Header(
            flags: .init(rawValue: flags), fileLength: UInt64(indexOffset + index.count), indexOffset: UInt64(indexOffset),
            indexLength: UInt64(index.count), entryCount: UInt32(records.count), dependencyCount: UInt32(table.count),
            indexChecksum: BakedChecksum.crc32(index), metadata: metadata, version: version)
        return header.encoded(checksum: BakedChecksum.crc32) + dataArea + index
    }

    /// Gives `bytes` the header checksum its first 60 bytes call for.
    static func resealHeader(_ bytes: inout [UInt8]) {
        bytes.storeLittleEndian(BakedChecksum.crc32(Array(bytes[0..<60])), at: 60)
    }
}

extension [UInt8] {
    fileprivate func littleEndian<T: FixedWidthInteger>(at offset: Int, as type: T.Type = T.self) -> T {
        (0..<MemoryLayout<T>.size).reduce(T.zero) { $0 | T(self[offset + $1]) << (8 * $1) }
    }

    /// Stores `value` little-endian at `offset`, appending where `offset` is the end.
    fileprivate mutating func storeLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        for byte in 0..<MemoryLayout<T>.size {
            let bits = UInt8(truncatingIfNeeded: value >> (8 * byte))
            if offset + byte < count { self[offset + byte] = bits } else { append(bits) }
        }
    }
}
