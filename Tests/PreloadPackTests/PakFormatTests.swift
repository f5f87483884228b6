import Foundation
import PreloadAuthoring
import Preload
import PreloadPack
import PreloadTestSupport
import Testing

@Suite struct PakFormatTests {
    static let sampleAssets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-assets").path
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func everyEntryComesBackByteExact() throws {
        let sources = try PakWriter.sources(in: Self.sampleAssets)
        #expect(sources.count >= 14 && sources.map(\.name).contains("atlases/ui/ui.json"))
        let pack = directory.file("sample.pak")
        try PakWriter.write(sources, to: pack, level: 6, jobs: 2)
        let index = try PakFile.index(at: pack)
        #expect(index.entries.map(\.name) == sources.map(\.name))
        for source in sources {
            let entry = try #require(index.entry(named: source.name))
            #expect(try EntryReader.read(entry, from: pack) == bytes(source.path), "\(source.name)")
        }
    }

    @Test func theSameInputGivesTheSameBytesWhateverTheJobs() throws {
        let sources = try PakWriter.sources(in: Self.sampleAssets)
        try PakWriter.write(sources, to: directory.file("one.pak"), level: 6, jobs: 1)
        try PakWriter.write(sources, to: directory.file("two.pak"), level: 6, jobs: 2)
        try PakWriter.write(sources, to: directory.file("again.pak"), level: 6, jobs: 2)
        let one = try bytes(directory.file("one.pak"))
        let two = try bytes(directory.file("two.pak")), again = try bytes(directory.file("again.pak"))
        #expect(one == two && one == again)
    }

    @Test func incompressibleEntriesAreStored() throws {
        try directory.write("in/noise.bin", PNGFixture.noise(width: 64, height: 64))
        try directory.write("in/zeros.bin", [UInt8](repeating: 0, count: 100_000))
        let pack = directory.file("mixed.pak")
        let index = try PakWriter.write(try PakWriter.sources(in: directory.file("in")), to: pack)
        #expect(index.entry(named: "noise.bin")?.method == .stored)
        #expect(index.entry(named: "zeros.bin")?.method == .zlib && (index.entry(named: "zeros.bin")?.storedSize ?? 0) < 1000)
        let stored = try PakWriter.write(try PakWriter.sources(in: directory.file("in")), to: directory.file("level0.pak"), level: 0)
        #expect(stored.entries.allSatisfy { $0.method == .stored })
    }

    /// A pack of three small text entries, and its bytes.
    func smallPack() throws -> (path: String, bytes: [UInt8]) {
        for name in ["a.txt", "b.txt", "c.txt"] {
            try directory.write("small/\(name)", text: String(repeating: "entry \(name) ", count: 200))
        }
        let path = directory.file("small.pak")
        try PakWriter.write(try PakWriter.sources(in: directory.file("small")), to: path)
        return (path, try bytes(path))
    }

    func indexError(_ damaged: [UInt8]) throws -> PackError? {
        let path = try directory.write("damaged.pak", damaged)
        do {
            _ = try PakFile.index(at: path)
            return nil
        } catch {
            return error as? PackError
        }
    }

    @Test func damageToTheHeaderOrIndexIsCaught() throws {
        var (_, pack) = try smallPack()
        #expect(try indexError(Array("PK\u{3}\u{4} not a pak".utf8)) == .notAPack)
        #expect(try indexError(Array(pack.prefix(20)))?.category == .truncated)
        var header = pack
        header[12] ^= 1  // the entry count
        #expect(try indexError(header) == .corruptHeader("header checksum mismatch"))
        pack[pack.count - 3] ^= 0x40  // inside the index
        #expect(try indexError(pack) == .corruptIndex("index checksum mismatch"))
        #expect(try indexError(Array(pack.dropLast(10)))?.category == .truncated)
    }

    @Test func aDamagedEntryNamesItselfAndTheOthersStillRead() throws {
        var (path, pack) = try smallPack()
        let index = try PakFile.index(at: path)
        let b = try #require(index.entry(named: "b.txt"))
        pack[Int(b.offset + b.storedSize / 2)] ^= 0xFF
        let damaged = try directory.write("damaged.pak", pack)
        #expect {
            _ = try EntryReader.read(b, from: damaged)
        } throws: { error in
            guard let error = error as? PackError else { return false }
            return error.description.hasPrefix("entry 'b.txt': ")
        }
        for name in ["a.txt", "c.txt"] {
            #expect(try EntryReader.read(index.entry(named: name)!, from: damaged) == bytes(directory.file("small/\(name)")))
        }
    }

    @Test func theZlibWrapperIsCheckedAroundTheDeflateData() throws {
        var (path, pack) = try smallPack()
        let b = try #require(try PakFile.index(at: path).entry(named: "b.txt"))
        #expect(b.method == .zlib)
        // The index says the stream is shorter or longer than it is: no trailer, or bytes after it.
        var short = b
        short.storedSize -= 4
        #expect(throws: PackError.inflateFailed(entry: "b.txt", detail: "the zlib stream's Adler-32 trailer is missing")) {
            try EntryReader.read(short, from: path)
        }
        var long = b
        long.storedSize += 1
        #expect(throws: PackError.inflateFailed(entry: "b.txt", detail: "data follows the end of the compressed stream")) {
            try EntryReader.read(long, from: path)
        }
        pack[Int(b.offset)] = 0x79  // method 9: not deflate
        let damaged = try directory.write("bad-header.pak", pack)
        #expect(throws: PackError.inflateFailed(entry: "b.txt", detail: "inflate: invalid compressed data (incorrect header check)")) {
            try EntryReader.read(b, from: damaged)
        }
    }

    @Test func bombsAreStoppedWhileInflating() throws {
        try directory.write("bomb/zeros.bin", [UInt8](repeating: 0, count: 8 << 20))
        let path = directory.file("bomb.pak")
        let entry = try #require(try PakWriter.write(try PakWriter.sources(in: directory.file("bomb")), to: path).entries.first)
        #expect(entry.storedSize < 20_000, "8 MiB of zeros deflate to a few KiB")
        #expect(throws: PackError.entryTooLarge(entry: "zeros.bin", limit: 1 << 20)) {
            try EntryReader.read(entry, from: path, limits: PackLimits(maxEntryBytes: 1 << 20))
        }
        #expect(throws: PackError.ratioTooHigh(entry: "zeros.bin", limit: 100)) {
            try EntryReader.read(entry, from: path, limits: PackLimits(maxInflateRatio: 100, ratioCheckedAbove: 1 << 20))
        }
        // An index that understates the size is not believed: inflation stops one byte past it.
        var lying = entry
        lying.rawSize = 1000
        #expect(throws: PackError.largerThanDeclared(entry: "zeros.bin", declared: 1000)) {
            try EntryReader.read(lying, from: path)
        }
        // With no declared size to check up front, both limits hold while inflating.
        lying.rawSize = nil
        #expect(throws: PackError.ratioTooHigh(entry: "zeros.bin", limit: 100)) {
            try EntryReader.read(lying, from: path, limits: PackLimits(maxInflateRatio: 100, ratioCheckedAbove: 1 << 20))
        }
        #expect(throws: PackError.entryTooLarge(entry: "zeros.bin", limit: 1 << 20)) {
            try EntryReader.read(lying, from: path, limits: PackLimits(maxEntryBytes: 1 << 20))
        }
    }

    @Test func entryNamesCannotLeaveTheirFolder() {
        for good in ["a.png", "ui/atlas/page-1.png", "x..y", ".hidden/ok"] { #expect(PackEntryName.isValid(good), "\(good)") }
        for bad in ["", "/etc/passwd", "../up", "a/../../b", "a//b", "a/./b", "a/", "back\\slash", "nul\u{0}"] {
            #expect(!PackEntryName.isValid(bad), "\(bad)")
        }
    }
}
