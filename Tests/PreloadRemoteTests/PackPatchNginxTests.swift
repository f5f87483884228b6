import Foundation
import Preload
import PreloadAtlas
import PreloadAuthoring
import PreloadBaked
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import Testing

@testable import PreloadRemote

/// A baked pack updated by its changes from nginx on loopback: the new pack's header and index,
/// then its changed entries in one multi-range request (`RemoteFetcher.fetchRanges`), patched
/// over the old pack (`BakedPackPatch`); a server that ignores `Range` sends the whole file.
@Suite(.enabled(if: NginxServer.isInstalled, "nginx is not installed (.ci/system-packages install remote)"))
struct PackPatchNginxTests {
    let fixture: RemoteFixture
    let nginx: NginxServer
    let work: TemporaryDirectory

    init() async throws {
        fixture = try await RemoteFixture.make()
        nginx = try await offThePool { try SharedServers.nginx() }
        work = try TemporaryDirectory("preload-patch")
    }

    /// `sample-assets` baked into `old.bake`, then with 5 textures changed (`side` pixels
    /// square), 1 added and 1 removed into `new.bake`.
    func bakeTwice(side: Int = 64) async throws -> (old: String, new: [UInt8]) {
        let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("sample-assets").path
        try FileManager.default.copyItem(atPath: assets, toPath: work.file("assets"))
        func bake(_ pack: String) async throws {
            let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
            let report = try await coordinator.preload([.folder(work.file("assets"), name: "assets")], options: PreloadOptions(storesAssets: false))
            try BakeWriter.write(report, to: work.file(pack))
        }
        try await bake("old.bake")
        for (number, name) in ["sprites/coin.png", "sprites/hero.png", "sprites/slime.png", "tiles/grass_tile.png", "backgrounds/forest.png"]
            .enumerated()
        {
            try work.write("assets/" + name, PNGFixture.noisePNG(side: side, seed: UInt64(number) + 300))
        }
        try work.write("assets/sprites/bat.png", PNGFixture.noisePNG(side: 48, seed: 400))
        try FileManager.default.removeItem(atPath: work.file("assets/masks/light_mask.png"))
        try await bake("new.bake")
        return (work.file("old.bake"), try Array(Data(contentsOf: URL(fileURLWithPath: work.file("new.bake")))))
    }

    /// Fetches the header and index of the pack at `url`, diffs it against `old`, fetches what
    /// changed and patches `old` in place; returns the diff and the two fetches.
    func patch(_ old: String, from url: String, rangesPerRequest: Int = 16) async throws -> (BakedPackDiff?, FetchedRanges, FetchedRanges) {
        let fetcher = try fixture.fetcher()
        let head = try await fetcher.fetchRanges([0..<UInt64(BakedFormat.headerSize)], of: url)
        let header = try #require(head.parts.first?.bytes)
        if let whole = head.wholeFile {  // the server ignores Range: the first answer was the whole pack
            _ = try whole.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
            try AtomicFile.write([(old, whole)])
            return (nil, head, head)
        }
        let (offset, length) = header.withUnsafeBytes {
            (
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 24, as: UInt64.self)),
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
            )
        }
        let tail = try await fetcher.fetchRanges([offset..<offset + length], of: url, ifRange: head.etag)
        let index = try #require(tail.parts.first?.bytes)
        let newIndex = try header.withUnsafeBytes { head in
            try index.withUnsafeBytes { try BakedIndex(header: head, index: $0, checksum: BakedChecksum.crc32) }
        }
        let oldIndex = try FileMapping(path: old).withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
        let diff = BakedPackDiff(old: oldIndex, new: newIndex)
        let entries = try await fetcher.fetchRanges(diff.requests, of: url, rangesPerRequest: rangesPerRequest, ifRange: head.etag)
        try BakedPackPatch.apply(
            diff, header: header, index: index, old: old, fetched: entries.parts.map { BakedPackPatch.Fetched(range: $0.range, bytes: $0.bytes) },
            to: old)
        return (diff, entries, tail)
    }

    @Test func theChangedEntriesComeInOneRequestAndThePatchedPackIsTheServers() async throws {
        let (old, new) = try await bakeTwice()
        try fixture.serve("levels/level1.bake", new)
        let url = nginx.baseURL.absoluteString + "/" + fixture.folderName + "/levels/level1.bake"
        let (patched, entries, _) = try await patch(old, from: url)
        let diff = try #require(patched)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: old))) == new)
        #expect(diff.requests.count > 1 && entries.requests == 1 && !entries.cameWhole)
        let moved = diff.outlineBytes + entries.networkBytes  // the header and the index came in two requests of their own
        let changedAndIndex = diff.fetchedEntryBytes + diff.outlineBytes
        #expect(Double(moved) <= 1.05 * Double(changedAndIndex), "\(moved) against \(changedAndIndex)")
        print(
            "PackPatch over nginx: pack \(diff.packLength) bytes; changed+new entries \(diff.fetchedEntryBytes) + header+index \(diff.outlineBytes);",
            "body bytes moved \(moved) (\(String(format: "%.3f", Double(moved) / Double(changedAndIndex)))x) in 3 requests,",
            "\(diff.requests.count) ranges in one multipart answer")
    }

    @Test func oneRangeARequestGivesTheSamePack() async throws {
        let (old, new) = try await bakeTwice()
        try fixture.serve("levels/level1.bake", new)
        let url = nginx.baseURL.absoluteString + "/" + fixture.folderName + "/levels/level1.bake"
        let (patched, entries, _) = try await patch(old, from: url, rangesPerRequest: 1)
        let diff = try #require(patched)
        #expect(entries.requests == diff.requests.count && entries.networkBytes == diff.requestedBytes)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: old))) == new)
    }

    /// nginx with `max_ranges 0` ignores `Range`: the whole file comes in the first answer, and
    /// says so; nothing more is asked.
    @Test func aServerThatIgnoresRangeSendsTheWholeFileAndItSaysSo() async throws {
        let (old, new) = try await bakeTwice()
        try fixture.serve("level1.bake", new)
        let root = fixture.served.path
        let plain = try await offThePool { try NginxServer.start(root: root, serverDirectives: "max_ranges 0;") }
        defer { plain.stop() }
        let (diff, head, _) = try await patch(old, from: plain.baseURL.absoluteString + "/level1.bake")
        #expect(diff == nil && head.cameWhole && head.requests == 1 && head.networkBytes == UInt64(new.count))
        #expect(head.parts.first?.bytes == Array(new[0..<BakedFormat.headerSize]))
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: old))) == new)
    }
}

/// A `multipart/byteranges` answer read part by part, by each part's `Content-Range`; a part cut
/// short is an error, not fewer bytes.
@Suite struct RangeAnswerTests {
    static func answer(_ body: String) -> (HTTPHead, [UInt8]) {
        (HTTPHead(status: 206, headers: ["content-type": "multipart/byteranges; boundary=XYZ"]), Array(body.utf8))
    }

    @Test func partsAreReadByTheirContentRange() throws {
        let (head, body) = Self.answer(
            "\r\n--XYZ\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes 2-5/100\r\n\r\nabcd\r\n"
                + "--XYZ\r\nContent-Range: bytes 50-51/100\r\n\r\n--\r\n--XYZ--\r\n")
        let parts = try RangeAnswer.parts(of: head, body: body)
        #expect(parts == [.init(range: 2..<6, bytes: Array("abcd".utf8)), .init(range: 50..<52, bytes: Array("--".utf8))])
        let (cutHead, cut) = Self.answer("\r\n--XYZ\r\nContent-Range: bytes 2-5/100\r\n\r\nab")
        #expect(throws: RemoteFetchError.mismatch("a part is cut short")) { try RangeAnswer.parts(of: cutHead, body: cut) }
    }

    /// A part whose `Content-Range` is empty or garbled after `bytes ` is refused by name (an
    /// empty one, `bytes /`, once trapped, indexing the first of no fields).
    @Test func aGarbledContentRangeIsAnErrorNotATrap() throws {
        for spec in ["bytes /", "bytes //", "bytes /100", "bytes 5-2/100", "bytes x-y/100", "items 1-2/3"] {
            let (head, body) = Self.answer("\r\n--XYZ\r\nContent-Range: \(spec)\r\n\r\nabcd\r\n--XYZ--\r\n")
            #expect(throws: RemoteFetchError.mismatch("a part without a Content-Range")) { try RangeAnswer.parts(of: head, body: body) }
        }
    }
}
