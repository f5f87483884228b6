import Foundation
import PreloadAuthoring
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import Testing

/// Packs through the coordinator: entries loaded by the plugins that claim them, from inside the
/// pack; damage confined to the entry it hits; progress weighted by compressed bytes.
@Suite struct PackLoaderTests {
    static let sources = ZipAndGzipTests.sources
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func coordinator(_ pack: PackLoader = PackLoader()) throws -> PreloadCoordinator {
        try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), pack], configuration: .init(maxConcurrentLoads: 2))
    }

    func makePak(_ name: String = "game.pak") throws -> String {
        let path = directory.file(name)
        try PakWriter.write(try PakWriter.sources(in: Self.sources), to: path, level: 6, jobs: 2)
        return path
    }

    /// What the PNG plugin decodes from the source file on disk.
    func decodedFromDisk(_ name: String) throws -> Texture {
        try PNGDecoder.decode(try ZipAndGzipTests.bytes(Self.sources + "/" + name))
    }

    @Test(arguments: ["pak", "python-deflate.zip", "infozip-zip64.zip"])
    func everyEntryLoadsByThePluginThatClaimsIt(_ kind: String) async throws {
        let pack = kind == "pak" ? try makePak() : ZipAndGzipTests.fixtures + "/" + kind
        let coordinator = try coordinator()
        let report = try await coordinator.start([AssetRequest(path: pack)]).finished()
        #expect(report.everythingLoaded, "\(report.errors)")
        let asset = try #require(coordinator.assets.asset(atPath: pack) as? PackAsset)
        #expect(asset.entries.map(\.name).sorted() == (try ZipAndGzipTests.sourceNames()))
        #expect(asset.errors.isEmpty)

        let hero = try #require(asset.entry(named: "art/hero.png")?.asset as? Texture)
        #expect(hero == (try decodedFromDisk("art/hero.png")))
        #expect(coordinator.assets.texture(named: pack + "#art/hero.png") == hero, "entries are stored as PACK#ENTRY")

        let atlas = try #require(asset.entry(named: "art/ui.json")?.asset as? TextureAtlas, "the atlas found its page inside the pack")
        #expect(atlas.pages.map(\.path) == [pack + "#art/ui.png"])
        let red = try atlas.image(of: try #require(atlas.frame(named: "red")))
        #expect(red.width == 4 && Array(red.pixels.prefix(4)) == [220, 30, 30, 255])
        #expect(report.allResults.filter { $0.request.path == pack + "#art/ui.png" }.compactMap(\.assetIndex).count >= 1)
        #expect(
            Set(report.allResults.filter { $0.request.path == pack + "#art/ui.png" }.compactMap(\.assetIndex)).count == 1,
            "the page the atlas needs and the pack's own entry are one load")

        for name in ["levels/1.json", "notes/na\u{EF}ve.txt", "audio/noise.bin", "empty.txt"] {
            let data = try #require(asset.entry(named: name)?.asset as? DataAsset, "\(name)")
            #expect(data.bytes == (try ZipAndGzipTests.bytes(Self.sources + "/" + name)), "\(name) is raw bytes")
        }
    }

    @Test func aDamagedEntryFailsAloneNamingPackAndEntry() async throws {
        let clean = try makePak()
        var bytes = try ZipAndGzipTests.bytes(clean)
        let entry = try #require(try PakFile.index(at: clean).entry(named: "levels/1.json"))
        bytes[Int(entry.offset + entry.storedSize / 2)] ^= 0x5A
        let pack = try directory.write("damaged.pak", bytes)
        let coordinator = try coordinator()
        let report = try await coordinator.start([AssetRequest(path: pack)]).finished()
        let asset = try #require(coordinator.assets.asset(atPath: pack) as? PackAsset, "the pack itself still loads")
        let failed = asset.entries.filter { $0.outcome.error != nil }
        #expect(failed.map(\.name) == ["levels/1.json"])
        let error = try #require(failed.first?.outcome.error)
        #expect(error.path == pack + "#levels/1.json" && error.category == .corrupt)
        #expect(error.description.contains("entry 'levels/1.json'"), "\(error)")
        #expect(asset.entry(named: "art/hero.png")?.asset is Texture)
        #expect(!report.everythingLoaded)
        let failure = PreloadFailure(report: report)
        #expect(failure.errors.map(\.path) == [pack + "#levels/1.json"], "the failed entry is in the batch's errors")
    }

    @Test func aCorruptIndexFailsThePackWithItsCause() async throws {
        var bytes = try ZipAndGzipTests.bytes(try makePak())
        bytes[bytes.count - 3] ^= 0xFF  // inside the index, at the end of the file
        let pack = try directory.write("bad-index.pak", bytes)
        let report = try await coordinator().start([AssetRequest(path: pack)]).finished()
        let error = try #require(report.errors.first)
        #expect(error.description == "\(pack): corrupt pack index: index checksum mismatch")
    }

    @Test func oneEntryCanBeRequestedOnItsOwn() async throws {
        let pack = try makePak()
        let coordinator = try coordinator()
        let report = try await coordinator.start([AssetRequest(path: pack + "#levels/1.json", name: "level")]).finished()
        #expect(report.everythingLoaded && report.results.count == 1, "only that entry loads")
        #expect(
            coordinator.assets.asset(named: "level", as: DataAsset.self)?.bytes.array == (try ZipAndGzipTests.bytes(Self.sources + "/levels/1.json")))
        let missing = try await coordinator.start([AssetRequest(path: pack + "#levels/2.json")]).finished()
        #expect(missing.errors.first?.description == "\(pack)#levels/2.json: no entry 'levels/2.json' in the pack")
    }

    /// A folder request inside a pack is listed by the pack's entries (the container is its
    /// source; nothing on disk is named `game.pak#art`): the same results as the folder on disk.
    @Test func aFolderInsideAPackLoadsItsEntriesAsTheFolderOnDisk() async throws {
        let pack = try makePak()
        let report = try await coordinator().preload([.folder(pack + "#art", name: "art")])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(report.results.map(\.request.path) == [pack + "#art/hero.png", pack + "#art/ui.json"])  // the page is ui.json's
        let onDisk = try await coordinator().preload([.folder(Self.sources + "/art", name: "art")])
        #expect(report.allResults.map(\.request.name) == onDisk.allResults.map(\.request.name))
        let missing = try await coordinator().preload([.folder(pack + "#nothing")])
        #expect(missing.errors.map(\.path) == [pack + "#nothing"] && missing.errors.first?.category == .fileNotFound, "\(missing.errors)")
    }

    @Test func theLoadersLimitsStopABomb() async throws {
        try directory.write("bomb/zeros.bin", [UInt8](repeating: 0, count: 6 << 20))
        try directory.write("bomb/fine.txt", Array("fine".utf8))
        let pack = directory.file("bomb.pak")
        try PakWriter.write(try PakWriter.sources(in: directory.file("bomb")), to: pack)
        let coordinator = try coordinator(PackLoader(limits: PackLimits(maxEntryBytes: 1 << 20)))
        _ = try await coordinator.start([AssetRequest(path: pack)]).finished()
        let asset = try #require(coordinator.assets.asset(atPath: pack) as? PackAsset)
        #expect(asset.entry(named: "zeros.bin")?.outcome.error?.category == .limitExceeded)
        #expect((asset.entry(named: "fine.txt")?.asset as? DataAsset)?.bytes.array == Array("fine".utf8))
    }

    @Test func largeEntriesInflateIntoTheCoordinatorsMemoryPool() async throws {
        let level = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 / 1000 &* 31) }  // compresses, 3 MB raw
        try directory.write("level/terrain.bin", level)
        try directory.write("level/small.txt", Array("small".utf8))
        let pack = directory.file("level.pak")
        try PakWriter.write(try PakWriter.sources(in: directory.file("level")), to: pack)
        let memory = AssetMemory(configuration: .init(retentionSeconds: 3600))  // no expiry while a loaded machine runs the test
        let coordinator = try PreloadCoordinator(plugins: [PackLoader()], configuration: .init(maxConcurrentLoads: 2, memory: memory))
        #expect(try await coordinator.start([AssetRequest(path: pack)]).finished().everythingLoaded)
        let asset = try #require(coordinator.assets.asset(atPath: pack) as? PackAsset)
        let terrain = try #require(asset.entry(named: "terrain.bin")?.asset as? DataAsset)
        #expect(terrain.bytes.isPooled && terrain.bytes == level)
        #expect((asset.entry(named: "small.txt")?.asset as? DataAsset)?.bytes.isPooled == false)
        #expect(memory.statistics.liveBytes >= 3_000_000 && memory.statistics.mappedRegions == 1)
        #expect(terrain.bytes.withUnsafeBytes { Int(bitPattern: $0.baseAddress) } % (2 << 20) == 0, "huge-page aligned")
    }

    @Test func progressIsWeightedByCompressedBytes() async throws {
        let pack = try makePak()
        let index = try PakFile.index(at: pack)
        let seen = Recorder<PreloadProgress>()
        let report = try await coordinator().start(
            [AssetRequest(path: pack)], hooks: PreloadHooks(onProgress: { seen.append($0) })
        ).finished()
        #expect(report.everythingLoaded)
        let stored = index.entries.reduce(Int64(0)) { $0 + max(Int64($1.storedSize), 1) }
        #expect(seen.all.last?.totalUnitCount == stored + 1, "each entry weighs its stored size; the pack's index 1")
        #expect(seen.all.last?.fractionCompleted == 1.0)
    }

    @Test func aGzipFileIsAPackOfOne() async throws {
        let path = ZipAndGzipTests.fixtures + "/named.json.gz"
        let coordinator = try coordinator()
        let report = try await coordinator.start([AssetRequest(path: path)]).finished()
        #expect(report.everythingLoaded)
        let asset = try #require(coordinator.assets.asset(atPath: path) as? PackAsset)
        #expect(asset.format == .gzip && asset.entries.map(\.name) == ["level.json"])
        let level = try ZipAndGzipTests.bytes(Self.sources + "/levels/1.json")
        #expect(asset.entries[0].rawSize == UInt64(level.count), "the size is known once read")
        #expect((asset.entries[0].asset as? DataAsset)?.bytes.array == level)
    }

    /// The plugin keeps a pack's index while the file stays the same; planning finds it by the
    /// facts it has of the pack, loading by the pack's own `stat`: a pack rewritten between two
    /// batches is read again by both (sizes, claims and bytes of the new file).
    @Test func aPackRewrittenBetweenBatchesIsReadAgain() async throws {
        let pack = PackLoader()
        let coordinator = try PreloadCoordinator(plugins: [pack, DataFileLoader.raw])
        let path = try directory.write("level.zip", ZipFixture.stored([("notes.bin", Array("first".utf8))]))
        let first = try await coordinator.preload([AssetRequest(path: path)])
        #expect(first.dependencies.map(\.progressWeight) == [5], "its stored size")
        #expect((coordinator.assets.asset(named: path + "#notes.bin") as? DataAsset)?.bytes.count == 5)
        try directory.write("level.zip", ZipFixture.stored([("notes.bin", Array("the second one".utf8)), ("more.bin", [1, 2])]))
        let second = try await coordinator.preload([AssetRequest(path: path)])
        #expect(second.everythingLoaded, "\(second.errors)")
        #expect(second.dependencies.map(\.progressWeight) == [14, 2])
        #expect((coordinator.assets.asset(named: path + "#notes.bin") as? DataAsset)?.bytes.count == 14)
    }
}
