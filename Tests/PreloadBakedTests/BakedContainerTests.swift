import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadPNG
import PreloadTestSupport
import Testing

/// A container is baked as its entries whatever plugin opens it: the writer asks
/// `as? any ContainerAsset`, so a third party's container (a tar file, with the public API only)
/// bakes as a `.pak` does: each entry under its own name, the container itself not an entry.
@Suite struct BakedContainerTests {
    @Test func aThirdPartyContainerBakesAsItsEntries() async throws {
        let directory = try TemporaryDirectory()
        let hero = PNGFixture.rgba(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        try directory.write("art.tar", TarFixture.archive([("sprites/hero.png", hero), ("notes.txt", Array("hello".utf8))]))
        let loose = try PreloadCoordinator(plugins: [PNGLoader(), TarLoader()])
        let report = try await loose.preload(
            [AssetRequest(path: directory.file("art.tar"), name: "art.tar")], options: PreloadOptions(storesAssets: false))
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(report.results.first?.outcome.asset is TarAsset)

        let pack = directory.file("art.bake")
        let summary = try BakeWriter.write(report, to: pack)
        #expect(summary.unpackedPacks == [directory.file("art.tar")], "\(summary)")
        #expect(summary.count(ofKind: "texture") == 1 && summary.count(ofKind: "data") == 1, "\(summary)")

        let baked = try PreloadCoordinator(plugins: [PNGLoader(), BakedPackLoader()])
        let loaded = try await baked.preload([AssetRequest(path: pack)])
        #expect(loaded.everythingLoaded, "\(loaded.errors)")
        #expect(loaded.results.map(\.request.name) == ["art.tar#sprites/hero.png", "art.tar#notes.txt"], "the container is no entry")
        #expect(try #require(baked.assets.texture(named: "art.tar#sprites/hero.png")).pixels == [1, 2, 3, 4, 5, 6, 7, 8])
        let notes = try #require(baked.assets.asset(named: "art.tar#notes.txt", as: DataAsset.self))
        #expect(notes.bytes.array == Array("hello".utf8))
    }
}

/// A loaded tar file: the outcome of each entry, a third party's container.
struct TarAsset: ContainerAsset {
    var entries: [AssetOutcome]

    var kind: AssetKind { "tar" }
    var byteCount: Int { entries.reduce(0) { $0 + ($1.asset?.byteCount ?? 0) } }
}

/// Opens ustar archives (`.tar`), made with the public API only: each entry is a dependency
/// named after the caller's name (`NAME#ENTRY`), and an entry no other plugin claims loads as
/// its raw bytes.
struct TarLoader: ContainerPlugin {
    var identifier: String { "tar" }
    var assetKind: AssetKind { "tar" }
    var fileExtensions: Set<String> { ["tar"] }
    var headerLength: Int { 512 }

    func matchesSignature(_ header: [UInt8]) -> Bool { TarFixture.isArchive(header) }

    func dependencies(of request: PlannedRequest) throws -> [AssetRequest] {
        guard request.file.entry == nil else { return [] }
        return try entryNames(in: request.path).map { entryRequest(for: $0, of: request) }
    }

    func load(_ context: LoadContext) throws -> any Asset {
        guard context.request.file.entry == nil else { return DataAsset(bytes: try context.readContents()) }
        let names = try entryNames(in: context.request.path)
        return TarAsset(entries: names.map { context.outcome(of: entryRequest(for: $0, of: context.request)) ?? .cancelled })
    }

    func opensContainer(at path: String, header: [UInt8]) -> Bool { TarFixture.isArchive(header) }

    func entryNames(in container: String) throws -> [String] { try entries(of: container).map(\.name) }

    func entrySize(_ entry: String, in container: String) throws -> Int64 { Int64(try bytes(of: entry, in: container).count) }

    func readEntry(
        _ entry: String, in container: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> AssetBytes {
        AssetBytes(try bytes(of: entry, in: container))
    }

    private func entryRequest(for entry: String, of request: PlannedRequest) -> AssetRequest {
        AssetRequest(path: request.path + "#" + entry, name: request.request.name + "#" + entry)
    }

    private func bytes(of entry: String, in container: String) throws -> [UInt8] {
        guard let found = try entries(of: container).first(where: { $0.name == entry }) else {
            throw AssetError(path: container + "#" + entry, category: .fileNotFound, reason: "no such entry in the tar file")
        }
        return found.bytes
    }

    private func entries(of container: String) throws -> [(name: String, bytes: [UInt8])] {
        guard let data = FileManager.default.contents(atPath: container) else {
            throw AssetError(path: container, category: .fileNotFound, reason: "cannot be read")
        }
        return try TarFixture.entries(of: [UInt8](data), path: container)
    }
}

/// ustar archives: 512-byte headers (the name at 0, the size in octal at 124, `ustar` at 257),
/// each followed by its data padded to 512 bytes; two zero blocks end the archive.
enum TarFixture {
    static func isArchive(_ header: [UInt8]) -> Bool {
        header.count >= 262 && Array(header[257..<262]) == Array("ustar".utf8)
    }

    /// An archive of `files`, as `tar` writes regular files.
    static func archive(_ files: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var archive: [UInt8] = []
        for (name, bytes) in files {
            var header = [UInt8](repeating: 0, count: 512)
            func put(_ text: String, at offset: Int) { header.replaceSubrange(offset..<offset + text.utf8.count, with: Array(text.utf8)) }
            put(name, at: 0)
            put("0000644", at: 100)
            put("0000000", at: 108)
            put("0000000", at: 116)
            put(String(repeating: "0", count: 11 - String(bytes.count, radix: 8).count) + String(bytes.count, radix: 8), at: 124)
            put("00000000000", at: 136)
            put("0", at: 156)
            put("ustar", at: 257)
            put("00", at: 263)
            put("        ", at: 148)
            let sum = header.reduce(0) { $0 + Int($1) }
            put(String(repeating: "0", count: 6 - String(sum, radix: 8).count) + String(sum, radix: 8), at: 148)
            header[154] = 0
            archive += header + bytes + [UInt8](repeating: 0, count: (512 - bytes.count % 512) % 512)
        }
        return archive + [UInt8](repeating: 0, count: 1024)
    }

    /// The regular files of the archive `bytes` (at `path`, for errors).
    static func entries(of bytes: [UInt8], path: String) throws -> [(name: String, bytes: [UInt8])] {
        var entries: [(name: String, bytes: [UInt8])] = []
        var offset = 0
        while offset + 512 <= bytes.count, bytes[offset] != 0 {
            let header = Array(bytes[offset..<offset + 512])
            let name = String(decoding: header[0..<100].prefix { $0 != 0 }, as: UTF8.self)
            let octal = String(decoding: header[124..<136].prefix { $0 != 0 && $0 != 32 }, as: UTF8.self)
            guard let size = Int(octal, radix: 8), offset + 512 + size <= bytes.count else {
                throw AssetError(path: path, category: .corrupt, reason: "entry '\(name)' has a bad size or is cut short")
            }
            if header[156] == UInt8(ascii: "0") || header[156] == 0 { entries.append((name, Array(bytes[offset + 512..<offset + 512 + size]))) }
            offset += 512 + (size + 511) / 512 * 512
        }
        return entries
    }
}
