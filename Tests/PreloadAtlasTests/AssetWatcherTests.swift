import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// What a watcher reloaded, and a probe: a PNG beside the tests' files that the watcher also
/// watches (from the first time it is needed) and that no test changes on its own. Changing the
/// probe and waiting for its reload proves that every reload set off before has arrived: the
/// watcher reads its file events in order, reloads one batch at a time and reports each batch in
/// name order, and the probe's name sorts after every other. So a stray reload (a second one
/// for an editor's several writes, one set off by the reload's own reads) would have come.
final class ReloadLog: Sendable {
    static let probeName = "zz-probe"
    /// The reloads of everything but the probe, in the order they were reported.
    let reloads = Recorder<AssetReload>()
    private let probeReloads = Recorder<AssetReload>()
    private let probePath: String
    /// Whether the probe is watched yet, and the seed of its next picture.
    private let probe = Locked((isWatched: false, seed: UInt64(100)))

    /// A log whose probe is written into `directory` now, before any watcher looks at it.
    init(probeIn directory: TemporaryDirectory) throws {
        probePath = try directory.write("\(Self.probeName).png", AssetWatcherTests.Scene.png(seed: 99))
    }

    /// For the watcher's `onReload`.
    func record(_ reload: AssetReload) {
        if reload.name == Self.probeName { probeReloads.append(reload) } else { reloads.append(reload) }
    }

    /// Waits until `count` reloads arrived (a failure after `seconds`), then until no stray one
    /// is still to come (see above); returns every reload so far.
    func settled(count: Int, watcher: AssetWatcher, seconds: Double = 120) async throws -> [AssetReload] {
        try await settled(watcher: watcher, seconds: seconds, "\(count) reloads") { $0.count >= count }
    }

    /// Waits until the reloads so far meet `condition`, named `what` (a failure after
    /// `seconds`), then until no stray one is still to come; returns every reload so far.
    func settled(
        watcher: AssetWatcher, seconds: Double = 120, _ what: String, until condition: @escaping @Sendable ([AssetReload]) -> Bool
    ) async throws -> [AssetReload] {
        #expect(await reloads.wait(seconds: seconds, until: condition), "\(what) within \(seconds) s: \(reloads.all)")
        let (isWatched, seed) = probe.withLock { probe in
            defer { probe = (true, probe.seed + 1) }
            return probe
        }
        if !isWatched {
            let report = try await watcher.coordinator.preload([AssetRequest(path: probePath, name: Self.probeName)])
            try watcher.watch(report)
        }
        let probed = probeReloads.all.count + 1
        try Data(AssetWatcherTests.Scene.png(seed: seed)).write(to: URL(fileURLWithPath: probePath))
        #expect(await probeReloads.wait(forCount: probed, seconds: 120), "the probe reloaded")
        return reloads.all
    }
}

/// Hot reload with real files: edits the way editors make them, and what the store holds after.
@Suite(.serialized) struct AssetWatcherTests {
    /// A folder with a PNG and an atlas, loaded, and a watcher recording its reloads.
    final class Scene: Sendable {
        let directory: TemporaryDirectory
        let coordinator: PreloadCoordinator
        let log: ReloadLog
        let watcher: AssetWatcher

        init() async throws {
            directory = try TemporaryDirectory("watcher")
            try directory.write("hero.png", Self.png(seed: 1))
            try directory.write("ui/ui.png", Self.png(seed: 2))
            try directory.write(
                "ui/ui.json", text: #"{"frames": {"button": {"frame": {"x": 0, "y": 0, "w": 4, "h": 4}}}, "meta": {"image": "ui.png"}}"#)
            coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
            let report = try await coordinator.preload([
                AssetRequest(path: directory.file("hero.png"), name: "hero"),
                AssetRequest(path: directory.file("ui/ui.json"), name: "ui", plugin: "atlas"),
            ])
            #expect(report.everythingLoaded, "\(report.errors)")
            let log = try ReloadLog(probeIn: directory)
            self.log = log
            watcher = try AssetWatcher(coordinator: coordinator, debounce: .milliseconds(150)) { log.record($0) }
            try watcher.watch(report)
        }

        static func png(seed: UInt64, width: Int = 8) -> [UInt8] {
            PNGFixture.rgba(width: width, height: 8, pixels: PNGFixture.noise(width: width, height: 8, seed: seed))
        }

        static func pixels(seed: UInt64, width: Int = 8) throws -> [UInt8] { try PNGDecoder.decode(png(seed: seed, width: width)).pixels.array }

        /// Waits (up to `seconds`) until `count` reloads arrived, then until no stray one is still to come.
        func reloads(count: Int, seconds: Double = 120) async throws -> [AssetReload] {
            try await log.settled(count: count, watcher: watcher, seconds: seconds)
        }

        func heroPixels() -> [UInt8]? { coordinator.assets.texture(named: "hero")?.pixels.array }

        deinit {
            watcher.stop()
            directory.remove()
        }
    }

    @Test func aSpriteFolderReloadsWhenASpriteIsAddedOrDeleted() async throws {
        let directory = try TemporaryDirectory("watcher")
        defer { directory.remove() }
        try directory.write("hud.atlas/a.png", Scene.png(seed: 1))
        try directory.write("hud.atlas/b.png", Scene.png(seed: 2))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
        let report = try await coordinator.preload([AssetRequest(path: directory.file("hud.atlas"), name: "hud")])
        #expect(report.everythingLoaded, "\(report.errors)")
        let log = try ReloadLog(probeIn: directory)
        let watcher = try AssetWatcher(coordinator: coordinator, debounce: .milliseconds(150)) { log.record($0) }
        defer { watcher.stop() }
        try watcher.watch(report)
        try directory.write("hud.atlas/c.png", Scene.png(seed: 3))
        // One reload, or more when a loaded machine spreads the new file's writes past the debounce:
        // each reloads the atlas whole.
        let added = try await log.settled(count: 1, watcher: watcher)
        #expect(!added.isEmpty && added.allSatisfy { $0.description == "reloaded hud (\(directory.file("hud.atlas")))" }, "\(added)")
        let grown = try #require(coordinator.assets.asset(named: "hud", as: TextureAtlas.self))
        #expect(grown.frames.count == 3)
        #expect(try grown.image(of: try #require(grown.frame(named: "c"))).pixels.array == (try Scene.pixels(seed: 3)))
        try FileManager.default.removeItem(atPath: directory.file("hud.atlas/a.png"))  // the folder stays: reload without it
        #expect(try await log.settled(count: added.count + 1, watcher: watcher).last?.asset is TextureAtlas)
        let shrunk = try #require(coordinator.assets.asset(named: "hud", as: TextureAtlas.self))
        #expect(shrunk.frames.count == 2 && shrunk.frame(named: "a") == nil)
    }

    @Test func aPNGRewrittenInPlaceReloadsOnceAfterTheWritesSettle() async throws {
        let scene = try await Scene()
        #expect(scene.watcher.watchedNames == ["hero", "ui"])
        let path = scene.directory.file("hero.png")
        for seed in UInt64(3)...7 { try Data(Scene.png(seed: seed)).write(to: URL(fileURLWithPath: path)) }  // an editor's several writes
        let reloads = try await scene.reloads(count: 1)
        #expect(reloads.map(\.description) == ["reloaded hero (\(path))"])
        #expect(scene.heroPixels() == (try Scene.pixels(seed: 7)))
        #expect((reloads.first?.asset as? Texture)?.pixels.array == (try Scene.pixels(seed: 7)))
    }

    @Test func aPNGSavedAgainWithTheSameBytesReloadsNothing() async throws {
        let scene = try await Scene()
        let path = scene.directory.file("hero.png")
        // Saved twice unchanged: in place, then by rename as most editors save.
        try Data(Scene.png(seed: 1)).write(to: URL(fileURLWithPath: path))
        let temporary = try scene.directory.write(".hero.png.swp", Scene.png(seed: 1))
        #expect(rename(temporary, path) == 0)
        let unchanged = try await scene.log.settled(watcher: scene.watcher, "the saves seen") { _ in true }
        #expect(unchanged.isEmpty, "\(unchanged)")
        // Changed, it reloads; saved again with those bytes, it does not.
        try Data(Scene.png(seed: 3)).write(to: URL(fileURLWithPath: path))
        #expect(try await scene.reloads(count: 1).map(\.description) == ["reloaded hero (\(path))"])
        try Data(Scene.png(seed: 3)).write(to: URL(fileURLWithPath: path))
        #expect(try await scene.reloads(count: 1).count == 1)
        #expect(scene.heroPixels() == (try Scene.pixels(seed: 3)))
    }

    @Test func aPNGReplacedByRenameReloads() async throws {
        let scene = try await Scene()
        let temporary = try scene.directory.write(".hero.png.swp", Scene.png(seed: 9))  // how most editors save
        #expect(rename(temporary, scene.directory.file("hero.png")) == 0)
        let reloads = try await scene.reloads(count: 1)
        #expect(reloads.map(\.name) == ["hero"])
        #expect(scene.heroPixels() == (try Scene.pixels(seed: 9)))
    }

    @Test func anAtlasReloadsWhenItsPageChanges() async throws {
        let scene = try await Scene()
        let page = scene.directory.file("ui/ui.png")
        let old = try #require(scene.coordinator.assets.asset(named: "ui", as: TextureAtlas.self))
        try Data(Scene.png(seed: 11)).write(to: URL(fileURLWithPath: page))
        let reloads = try await scene.reloads(count: 1)
        #expect(reloads.map(\.name) == ["ui"])
        #expect(reloads.first?.changedFiles == [page])
        let atlas = try #require(scene.coordinator.assets.asset(named: "ui", as: TextureAtlas.self))
        #expect(atlas.pages[0].texture.pixels.array == (try Scene.pixels(seed: 11)))
        #expect(old.pages[0].texture.pixels.array == (try Scene.pixels(seed: 2)))  // what a caller held stays intact
        #expect(scene.coordinator.assets.texture(named: page)?.pixels.array == (try Scene.pixels(seed: 11)))  // the page's own entry too
        #expect(scene.heroPixels() == (try Scene.pixels(seed: 1)))  // nothing else reloaded
    }

    @Test func aCorruptedFileFailsByNameAndTheOldAssetStays() async throws {
        let scene = try await Scene()
        let path = scene.directory.file("hero.png")
        try Data(Scene.png(seed: 5).prefix(40)).write(to: URL(fileURLWithPath: path))
        let reloads = try await scene.reloads(count: 1)
        #expect(reloads.count == 1)
        guard case .failed(let error) = reloads.first?.outcome else {
            Issue.record("expected a failure, got \(reloads)")
            return
        }
        #expect(error.path == path && error.category == .truncated)
        #expect(scene.heroPixels() == (try Scene.pixels(seed: 1)))
        // Fixed, it reloads.
        try Data(Scene.png(seed: 6)).write(to: URL(fileURLWithPath: path))
        _ = try await scene.reloads(count: 2)
        #expect(scene.heroPixels() == (try Scene.pixels(seed: 6)))
    }

    @Test func aDeletedFileIsReportedAndTheOldAssetStaysUntilItComesBack() async throws {
        let scene = try await Scene()
        let path = scene.directory.file("hero.png")
        try FileManager.default.removeItem(atPath: path)
        let reloads = try await scene.reloads(count: 1)
        #expect(reloads.map(\.description) == ["missing hero (\(path)): \(path) is gone; the loaded asset stays"])
        #expect(scene.heroPixels() == (try Scene.pixels(seed: 1)))
        try scene.directory.write("hero.png", Scene.png(seed: 8, width: 16))
        let after = try await scene.reloads(count: 2)
        #expect(after.last?.description == "reloaded hero (\(path))")
        #expect(scene.coordinator.assets.texture(named: "hero")?.width == 16)
    }

    @Test func stoppingFreesTheDescriptorsAndEndsReloads() async throws {
        /// The process's inotify instances (only this suite makes any, one test at a time).
        func inotifyInstances() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == "anon_inode:inotify"
            }
        }
        let scene = try await Scene()
        #expect(scene.watcher.watchedFolderCount == 2)  // the folder of hero.png, the folder of the atlas and its page
        let watching = try inotifyInstances()
        #expect(watching >= 1)
        scene.watcher.stop()
        #expect(scene.watcher.watchedFolderCount == 0)
        #expect(try inotifyInstances() == watching - 1)
        try Data(Scene.png(seed: 4)).write(to: URL(fileURLWithPath: scene.directory.file("hero.png")))
        _ = await scene.log.reloads.wait(forCount: 1, seconds: 0.5)  // a short window: a stopped watcher has nothing left to signal with
        #expect(scene.log.reloads.all.isEmpty)
        #expect(scene.heroPixels() == (try Scene.pixels(seed: 1)))
    }
}
