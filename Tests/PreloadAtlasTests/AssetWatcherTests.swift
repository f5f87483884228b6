import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// Hot reload with real files: edits the way editors make them, and what the store holds after.
@Suite(.serialized) struct AssetWatcherTests {
    /// A folder with a PNG and an atlas, loaded, and a watcher recording its reloads.
    final class Scene: Sendable {
        let directory: TemporaryDirectory
        let coordinator: PreloadCoordinator
        let reloads = Recorder<AssetReload>()
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
            #expect(report.succeeded, "\(report.errors)")
            let reloads = self.reloads
            watcher = try AssetWatcher(coordinator: coordinator, debounce: .milliseconds(150)) { reloads.append($0) }
            try watcher.watch(report)
        }

        static func png(seed: UInt64, width: Int = 8) -> [UInt8] {
            PNGFixture.rgba(width: width, height: 8, pixels: PNGFixture.noise(width: width, height: 8, seed: seed))
        }

        static func pixels(seed: UInt64, width: Int = 8) throws -> [UInt8] { try PNGDecoder.decode(png(seed: seed, width: width)).pixels.array }

        /// Waits (up to `seconds`) until `count` reloads arrived, then a debounce longer for strays.
        func reloads(count: Int, seconds: Int = 10) async throws -> [AssetReload] {
            try await AssetWatcherTests.wait(for: reloads, count: count, seconds: seconds)
        }

        func heroPixels() -> [UInt8]? { coordinator.assets.texture(named: "hero")?.pixels.array }

        deinit {
            watcher.stop()
            directory.remove()
        }
    }

    /// Waits (up to `seconds`) until `recorder` holds `count` reloads, then a debounce longer
    /// for strays.
    static func wait(for recorder: Recorder<AssetReload>, count: Int, seconds: Int = 10) async throws -> [AssetReload] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while recorder.all.count < count && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(400))
        return recorder.all
    }

    @Test func aSpriteFolderReloadsWhenASpriteIsAddedOrDeleted() async throws {
        let directory = try TemporaryDirectory("watcher")
        defer { directory.remove() }
        try directory.write("hud.atlas/a.png", Scene.png(seed: 1))
        try directory.write("hud.atlas/b.png", Scene.png(seed: 2))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
        let report = try await coordinator.preload([AssetRequest(path: directory.file("hud.atlas"), name: "hud")])
        #expect(report.succeeded, "\(report.errors)")
        let reloads = Recorder<AssetReload>()
        let watcher = try AssetWatcher(coordinator: coordinator, debounce: .milliseconds(150)) { reloads.append($0) }
        defer { watcher.stop() }
        try watcher.watch(report)
        try directory.write("hud.atlas/c.png", Scene.png(seed: 3))
        #expect(try await Self.wait(for: reloads, count: 1).map(\.description) == ["reloaded hud (\(directory.file("hud.atlas")))"])
        let grown = try #require(coordinator.assets.asset(named: "hud", as: TextureAtlas.self))
        #expect(grown.frames.count == 3)
        #expect(try grown.image(of: try #require(grown.frame(named: "c"))).pixels.array == (try Scene.pixels(seed: 3)))
        try FileManager.default.removeItem(atPath: directory.file("hud.atlas/a.png"))  // the folder stays: reload without it
        #expect(try await Self.wait(for: reloads, count: 2).last?.asset is TextureAtlas)
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
        #expect(try await scene.reloads(count: 1, seconds: 1).isEmpty)
        #expect(scene.heroPixels() == (try Scene.pixels(seed: 1)))
    }
}
