import Foundation
import Preload
import PreloadPack
import PreloadZlib
import PreloadTestSupport
import Testing

/// Zip archives and gzip files written by other tools (Fixtures/make_pack_fixtures.py), read
/// byte-exact, and damaged ones refused with errors naming the entry.
@Suite struct ZipAndGzipTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
    static let sources = fixtures + "/src"
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The source files the archives were made from, relative to src/.
    static func sourceNames() throws -> [String] {
        try AssetFiles.local.files(under: sources)
    }

    @Test(arguments: ["python-deflate.zip", "python-stream.zip", "infozip.zip", "infozip-stream.zip", "infozip-zip64.zip"])
    func zipsFromOtherToolsReadByteExact(_ name: String) throws {
        let path = Self.fixtures + "/" + name
        #expect(PackIndexReader.format(of: try FileContents.prefix(path: path, count: 8)) == .zip)
        let index = try PackIndexReader.index(at: path)
        #expect(index.format == .zip)
        #expect(index.entries.map(\.name).sorted() == (try Self.sourceNames()), "folders are left out, every file is listed")
        #expect(index.entries.contains { $0.method == .deflate }, "the tools compressed something")
        for entry in index.entries {
            #expect(entry.problem == nil, "\(entry.name)")
            #expect(try EntryReader.read(entry, from: path) == Self.bytes(Self.sources + "/" + entry.name), "\(name): \(entry.name)")
        }
        #expect(index.entry(named: "notes/na\u{EF}ve.txt") != nil, "UTF-8 names decode")
    }

    @Test func aZipBehindAStubStillReads() throws {
        // A self-extracting archive: bytes in front, offsets recorded as if they were not there.
        let original = try Self.bytes(Self.fixtures + "/infozip.zip")
        let path = try directory.write("sfx.zip", [UInt8](repeating: 0x90, count: 1000) + original)
        let index = try ZipFile.index(at: path)
        let entry = try #require(index.entry(named: "levels/1.json"))
        #expect(try EntryReader.read(entry, from: path) == Self.bytes(Self.sources + "/levels/1.json"))
    }

    @Test func entriesThatCannotBeReadFailAloneWithTheirReason() throws {
        let path = Self.fixtures + "/mixed.zip"
        let index = try ZipFile.index(at: path)
        #expect(try EntryReader.read(try #require(index.entry(named: "plain.txt")), from: path) == Array("hello\n".utf8) * 20)
        let reasons = [
            "secret.txt": "entry 'secret.txt' cannot be read: it is encrypted",
            "link.txt": "entry 'link.txt' cannot be read: it is a symbolic link, which packs do not follow",
            "packed.bz2.txt": "entry 'packed.bz2.txt' cannot be read: compression method 12 (bzip2) is not supported (stored and deflate are)",
        ]
        for (name, reason) in reasons {
            let entry = try #require(index.entry(named: name))
            #expect(throws: PackError.self) { try EntryReader.read(entry, from: path) }
            #expect(entry.problem?.description == reason)
            #expect(entry.problem?.category == .unsupported)
        }
    }

    @Test func overlappingEntriesAreRefusedAsABomb() throws {
        let path = Self.fixtures + "/overlap.zip"
        let index = try ZipFile.index(at: path)
        #expect(try EntryReader.read(try #require(index.entry(named: "a.bin")), from: path).count == 4 << 20)
        for name in ["b.bin", "c.bin"] {
            let problem = try #require(index.entry(named: name)?.problem)
            #expect(problem.description.contains("overlaps the data of 'a.bin'"), "\(problem)")
        }
    }

    @Test func damageInOneZipEntryFailsThatEntryOnly() throws {
        var bytes = try Self.bytes(Self.fixtures + "/infozip.zip")
        let clean = try directory.write("clean.zip", bytes)
        let level = try #require(try ZipFile.index(at: clean).entry(named: "levels/1.json"))
        bytes[Int(level.offset + level.storedSize / 2)] ^= 0x55
        let path = try directory.write("damaged.zip", bytes)
        let index = try ZipFile.index(at: path)
        #expect {
            try EntryReader.read(try #require(index.entry(named: "levels/1.json")), from: path)
        } throws: { error in
            // Either zlib notices (invalid codes) or the CRC does: both name the entry.
            "\(error)".contains("entry 'levels/1.json'") && (error as? PackError)?.category == .corrupt
        }
        #expect(
            try EntryReader.read(try #require(index.entry(named: "art/hero.png")), from: path)
                == Self.bytes(Self.sources + "/art/hero.png"))
    }

    @Test func aCutZipOrADamagedDirectoryIsRefused() throws {
        let bytes = try Self.bytes(Self.fixtures + "/python-deflate.zip")
        let cut = try directory.write("cut.zip", Array(bytes.prefix(bytes.count - 30)))
        #expect(throws: PackError.corruptIndex("no end of central directory record (truncated zip?)")) { try ZipFile.index(at: cut) }
        var damaged = bytes
        let central = try #require(Self.find([0x50, 0x4B, 0x01, 0x02], in: bytes))
        damaged[central + 2] = 0  // the first central directory signature
        let path = try directory.write("damaged.zip", damaged)
        #expect(throws: PackError.corruptIndex("central directory entry 1 has a bad signature")) { try ZipFile.index(at: path) }
    }

    @Test func gzipEntriesAreNamedByTheHeaderOrTheFile() throws {
        let level = try Self.bytes(Self.sources + "/levels/1.json")
        for (file, entryName) in [("named.json.gz", "level.json"), ("plain.json.gz", "plain.json")] {
            let path = Self.fixtures + "/" + file
            let index = try PackIndexReader.index(at: path)
            #expect(index.format == .gzip && index.entries.map(\.name) == [entryName])
            #expect(try EntryReader.read(index.entries[0], from: path) == level)
        }
        let multi = Self.fixtures + "/multi.txt.gz"
        let entry = try GzipFile.index(at: multi).entries[0]
        #expect(entry.name == "multi.txt")
        #expect(
            try EntryReader.read(entry, from: multi) == Array("first member\n".utf8) * 100 + Array("second member\n".utf8) * 100,
            "concatenated members read as one, as gunzip does")
    }

    @Test func damagedGzipIsRefused() throws {
        let bytes = try Self.bytes(Self.fixtures + "/plain.json.gz")
        var badCRC = bytes
        badCRC[bytes.count - 8] ^= 0xFF
        let crcPath = try directory.write("bad-crc.json.gz", badCRC)
        #expect(throws: PackError.inflateFailed(entry: "bad-crc.json", detail: "inflate: invalid compressed data (incorrect data check)")) {
            try EntryReader.read(try GzipFile.index(at: crcPath).entries[0], from: crcPath)
        }
        let cutPath = try directory.write("cut.json.gz", Array(bytes.prefix(bytes.count - 20)))
        #expect(throws: PackError.inflateFailed(entry: "cut.json", detail: "the compressed data ends early")) {
            try EntryReader.read(try GzipFile.index(at: cutPath).entries[0], from: cutPath)
        }
        let junkPath = try directory.write("junk.json.gz", bytes + Array("trailing junk".utf8))
        #expect(throws: PackError.self) { try EntryReader.read(try GzipFile.index(at: junkPath).entries[0], from: junkPath) }
    }

    @Test func aGzipBombStopsAtTheLimitsWhileInflating() throws {
        let path = try directory.write("zeros.bin.gz", Self.gzip([UInt8](repeating: 0, count: 16 << 20)))
        let entry = try GzipFile.index(at: path).entries[0]
        #expect(entry.rawSize == nil, "gzip does not declare a usable size")
        #expect(throws: PackError.ratioTooHigh(entry: "zeros.bin", limit: 200)) {
            try EntryReader.read(entry, from: path, limits: PackLimits(maxInflateRatio: 200, ratioCheckedAbove: 1 << 20))
        }
        #expect(throws: PackError.entryTooLarge(entry: "zeros.bin", limit: 4 << 20)) {
            try EntryReader.read(entry, from: path, limits: PackLimits(maxEntryBytes: 4 << 20))
        }
        #expect(try EntryReader.read(entry, from: path).count == 16 << 20)
    }

    @Test func readingChecksCancellationBetweenChunks() throws {
        let path = try directory.write("noise.bin.gz", Self.gzip(PNGFixture.noise(width: 512, height: 512)))
        let entry = try GzipFile.index(at: path).entries[0]
        var checks = 0
        #expect(throws: CancellationError.self) {
            try EntryReader.read(
                entry, from: path,
                isCancelled: {
                    checks += 1; return checks > 1
                })
        }
        #expect(checks == 2, "stopped at the second chunk")
    }

    /// `data` as a gzip file: a minimal header, raw deflate, CRC-32 and size.
    static func gzip(_ data: [UInt8]) throws -> [UInt8] {
        let zlib = try Zlib.compress(data, level: 9)
        let deflate = zlib[2..<(zlib.count - 4)]
        var file: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + deflate
        for value in [CRC32.checksum(data), UInt32(truncatingIfNeeded: data.count)] {
            file += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        return file
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        haystack.indices.first { haystack[$0...].starts(with: needle) }
    }
}

extension Array {
    static func * (lhs: Array, rhs: Int) -> Array { Array((0..<rhs).map { _ in lhs }.joined()) }
}
