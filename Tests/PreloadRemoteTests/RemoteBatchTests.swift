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

/// Requests that name URLs, through a coordinator: fetched into the cache, then loaded by the
/// plugin that claims them as local files are, in one report and one progress bar.
@Suite struct RemoteBatchTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    static let sampleAssets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-assets").path

    func coordinator(_ fetcher: RemoteFetcher?, plugins: [any LoaderPlugin] = [PNGLoader(), AtlasLoader()]) throws -> PreloadCoordinator {
        try PreloadCoordinator(plugins: plugins, configuration: .init(fetcher: fetcher))
    }

    func serveSample(_ path: String, as name: String) throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.sampleAssets + "/" + path))
        try fixture.serve(name, Array(bytes))
    }

    @Test func aRemoteTextureLoadsAndIsFoundByItsURL() async throws {
        try serveSample("sprites/hero.png", as: "art/hero.png")
        let url = fixture.url("plain/art/hero.png")
        let coordinator = try coordinator(try fixture.fetcher())
        let fractions = Recorder<Double>()
        let report = try await coordinator.preload(
            [AssetRequest(path: url)], hooks: PreloadHooks(onProgress: { fractions.append($0.fractionCompleted) }))
        #expect(report.everythingLoaded)
        let texture = try #require(coordinator.assets.texture(named: url))
        #expect(texture.width == 64 && texture.height == 64)
        let result = try #require(report.results.first)
        #expect(result.request.path == url)
        let transfer = try #require(report.transfer(of: result))
        let size = try FileManager.default.attributesOfItem(atPath: Self.sampleAssets + "/sprites/hero.png")[.size] as! Int
        #expect(transfer.networkBytes == Int64(size) && transfer.cacheBytes == 0 && transfer.url == url)
        let seen = fractions.all
        #expect(seen == seen.sorted() && seen.last == 1.0)

        // Again: revalidated (304), nothing transferred, the same pixels.
        let again = try await self.coordinator(try fixture.fetcher()).preload([AssetRequest(path: url, name: "hero")])
        #expect(again.everythingLoaded && again.transfers.first?.networkBytes == 0 && again.transfers.first?.cacheBytes == Int64(size))
    }

    @Test func anAtlasPageBesideARemoteAtlasIsFetchedFromBesideIt() async throws {
        try serveSample("atlases/ui/ui.json", as: "ui/ui.json")
        try serveSample("atlases/ui/ui.png", as: "ui/ui.png")
        let coordinator = try coordinator(try fixture.fetcher())
        let url = fixture.url("plain/ui/ui.json")
        let report = try await coordinator.preload([AssetRequest(path: url, name: "ui")])
        #expect(report.everythingLoaded, "\(report.errors)")
        let atlas = try #require(coordinator.assets.asset(named: "ui", as: TextureAtlas.self))
        #expect(!atlas.frameNames.isEmpty)
        #expect(report.dependencies.map(\.request.path) == [fixture.url("plain/ui/ui.png")])
        #expect(Set(report.transfers.map(\.url)) == [url, fixture.url("plain/ui/ui.png")])
    }

    @Test func theFetcherGivenAmongTheSourcesIsTheSourceOfURLs() async throws {
        try serveSample("atlases/ui/ui.json", as: "sourced/ui.json")
        try serveSample("atlases/ui/ui.png", as: "sourced/ui.png")
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(sources: [try fixture.fetcher()]))
        let url = fixture.url("plain/sourced/ui.json")
        let report = try await coordinator.preload([AssetRequest(path: url, name: "ui")])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(coordinator.assets.asset(named: "ui", as: TextureAtlas.self) != nil && coordinator.assets.asset(atPath: url) != nil)
        #expect(report.dependencies.map(\.request.path) == [fixture.url("plain/sourced/ui.png")])
        #expect(Set(report.transfers.map(\.url)) == [url, fixture.url("plain/sourced/ui.png")])
    }

    /// A URL's source lists no folders: a folder request for one fails by its URL, naming the
    /// source, and nothing is fetched for it (not the folder as a file, not a walk of the disk).
    @Test func aFolderOfURLsFailsByNameAndFetchesNothing() async throws {
        try serveSample("sprites/hero.png", as: "art/hero.png")
        let folder = fixture.url("plain/art"), file = fixture.url("plain/art/hero.png")
        let report = try await coordinator(try fixture.fetcher()).preload([.folder(folder), AssetRequest(path: file)])
        let error = try #require(report.errors.first)
        #expect(report.errors.count == 1 && error.path == folder && error.category == .unsupported, "\(report.errors)")
        #expect(error.reason == "cannot list a folder of RemoteFetcher: the source lists no folders; request its files by name")
        #expect(report.loaded.map(\.request.requestedPath) == [file], "the file named on its own loads")
        #expect(try fixture.stats().map(\.path).allSatisfy { $0.hasSuffix("/art/hero.png") }, "the folder's URL was never asked for")
        // Without a fetcher, refused as any URL is.
        let refused = try await coordinator(nil).preload([.folder(folder)])
        #expect(refused.errors.map(\.path) == [folder] && refused.errors.first?.category == .download, "\(refused.errors)")
    }

    @Test func aRemoteBakedPackIsMappedFromTheCache() async throws {
        let sources = try TemporaryDirectory()
        defer { sources.remove() }
        try sources.write("art/a.png", PNGFixture.rgba(width: 2, height: 2, pixels: Array(repeating: 0x7F, count: 16)))
        try sources.write("art/b.png", PNGFixture.rgba(width: 3, height: 1, pixels: Array(0..<12)))
        let loose = try await PreloadCoordinator(plugins: [PNGLoader()]).preload(
            [.folder(sources.file("art"), name: "art")], options: PreloadOptions(storesAssets: false))
        let pack = sources.file("level.bake")
        try BakeWriter.write(loose, to: pack)
        try fixture.serve("level.bake", Array(try #require(FileManager.default.contents(atPath: pack))))
        let coordinator = try coordinator(try fixture.fetcher(), plugins: [PNGLoader(), BakedPackLoader()])
        let report = try await coordinator.preload([AssetRequest(path: fixture.url("plain/level.bake"))])
        #expect(report.everythingLoaded && report.results.count == 2, "\(report.errors)")
        let texture = try #require(coordinator.assets.texture(named: "art/b.png"))
        #expect(texture.width == 3 && texture.pixels.isMapped)
    }

    @Test func aRemotePacksEntriesAreNamedAsALocalPacksAre() async throws {
        try serveSample("packs/level1.pak", as: "level1.pak")
        let coordinator = try coordinator(try fixture.fetcher(), plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
        let report = try await coordinator.preload([AssetRequest(path: fixture.url("plain/level1.pak"), name: "level1")])
        #expect(report.everythingLoaded, "\(report.errors)")
        let local = try await PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()]).preload([
            AssetRequest(path: Self.sampleAssets + "/packs/level1.pak", name: "level1")
        ])
        #expect(Set(report.dependencies.map(\.request.name)) == Set(local.dependencies.map(\.request.name)))
        #expect(coordinator.assets.texture(named: "level1#hud/hud.png")?.width == 64)
    }

    @Test func withoutAFetcherAURLFailsByNameAndTheRestLoads() async throws {
        let local = try fixture.served.write("local.png", PNGFixture.rgba(width: 1, height: 1, pixels: [1, 2, 3, 4]))
        let url = fixture.url("plain/nothing.png")
        let report = try await coordinator(nil).preload([AssetRequest(path: url), AssetRequest(path: local)])
        #expect(report.loaded.count == 1)
        let error = try #require(report.failed.first?.outcome.error)
        #expect(error.path == url && error.category == .download && error.description.contains("no fetcher"))
    }

    @Test func aMissingRemoteFileFailsAloneWithItsStatus() async throws {
        try serveSample("sprites/hero.png", as: "hero.png")
        let report = try await coordinator(try fixture.fetcher()).preload([
            AssetRequest(path: fixture.url("plain/hero.png")), AssetRequest(path: fixture.url("plain/missing.png")),
        ])
        #expect(report.loaded.count == 1 && report.failed.count == 1)
        let error = try #require(report.failed.first?.outcome.error)
        #expect(error.category == .download && error.description.contains("HTTP 404"))
    }

    @Test func cancellingABatchStopsItsDownloadsAtOnce() async throws {
        try fixture.serve("slow.bin", RemoteFixture.bytes(100_000))
        let coordinator = try coordinator(try fixture.fetcher(stall: .seconds(120)), plugins: [PNGLoader(), DataFileLoader.raw])
        let batch = coordinator.start(
            (0..<8).map { AssetRequest(path: fixture.url("stall/slow.bin?after=1000&seconds=60&times=1&n=\($0)"), plugin: "data") })
        // Cancelled once bytes arrive (the downloads move the bar while the batch plans), by a
        // thread of its own reading the batch's progress: a task of the test, or a progress hook on
        // the hooks' queue, waited more than the stall for a thread under ThreadSanitizer with
        // every test target in one process, so that a download had finished before the cancel.
        // Bounded by the stall timeout.
        let cancelledAt = Locked<(instant: ContinuousClock.Instant, moved: Bool)?>(nil)
        let watcher = Thread {
            let deadline = ContinuousClock.now + .seconds(120)
            while batch.progress.fractionCompleted == 0 && !batch.isFinished && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.001)
            }
            let moved = batch.progress.fractionCompleted > 0 && !batch.isFinished
            cancelledAt.withLock { $0 = (.now, moved) }
            batch.cancel()
        }
        watcher.start()
        let finishedAt = Locked<ContinuousClock.Instant?>(nil)
        let report = await withCheckedContinuation { continuation in
            batch.whenFinished { report in
                finishedAt.withLock { $0 = .now }
                continuation.resume(returning: report)
            }
        }
        let cancelled = try #require(cancelledAt.withLock { $0 })
        #expect(cancelled.moved, "bytes arrived while the downloads stall")
        // At once: the transfers are cut, not waited for. Without the cut the batch would end no
        // sooner than the server's stall (60 s; the stall timeout is 120 s); alone this takes
        // milliseconds, and even a machine with a load of 25 does it well within the stall.
        let finished = try #require(finishedAt.withLock { $0 })
        #expect(finished - cancelled.instant < .seconds(50), "\(finished - cancelled.instant)")
        #expect(report.loaded.isEmpty && report.wasCancelled)
        let contents = try fixture.cacheContents()
        #expect(contents.blobs.isEmpty)
        // What was cut is kept to resume, and named in the index: no stray temporary file.
        #expect(contents.partials.count == (try fixture.cache().statistics.partials))
    }
}

/// What a remote file names stays on its server: a file on this machine is never read for it,
/// and its errors name its URL.
@Suite struct RemoteConfinementTests {
    let fixture: RemoteFixture

    init() async throws {
        fixture = try await RemoteFixture.make()
    }

    @Test func aRemoteAtlasNamingALocalPageFailsWithoutReadingIt() async throws {
        let secret = try fixture.cacheFolder.write("secret.png", PNGFixture.rgba(width: 1, height: 1, pixels: [9, 9, 9, 9]))
        for (name, page) in [("absolute.json", secret), ("climbing.json", "../../../../../../../../../" + secret)] {
            let atlas = #"{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": 1, "h": 1}}}, "meta": {"image": "\#(page)"}}"#
            try fixture.serve(name, Array(atlas.utf8))
            let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(fetcher: try fixture.fetcher()))
            let report = try await coordinator.preload([AssetRequest(path: fixture.url("plain/\(name)"))])
            #expect(report.loaded.isEmpty, "\(name) loaded with \(page)")
            #expect(!report.allResults.contains { $0.request.path == secret && $0.outcome.isLoaded })
            let error = try #require(report.errors.first)
            #expect(error.path == fixture.url("plain/\(name)"), "\(error)")
        }
    }

    @Test func aDamagedRemoteFileFailsByItsURL() async throws {
        let png = PNGFixture.rgba(width: 4, height: 4, pixels: Array(repeating: 7, count: 64))
        try fixture.serve("cut.png", Array(png.prefix(png.count - 20)))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(fetcher: try fixture.fetcher()))
        let report = try await coordinator.preload([AssetRequest(path: fixture.url("plain/cut.png"))])
        let error = try #require(report.errors.first)
        #expect(error.path == fixture.url("plain/cut.png") && !error.description.contains(fixture.cacheFolder.path), "\(error)")
    }
}
