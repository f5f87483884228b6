import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// Hot reload of walked folders (``AssetRequest/folder(_:name:options:)``), watched as folders:
/// files added load, a folder deleted and made again is watched again. In the watcher's suite,
/// which runs one test at a time (one of its tests counts the process's inotify descriptors).
extension AssetWatcherTests {
    /// A folder `level` inside a temporary directory, loaded as `.folder(..., name: "level")`, and
    /// a watcher recording its reloads.
    final class FolderScene: Sendable {
        let directory: TemporaryDirectory
        let coordinator: PreloadCoordinator
        let log: ReloadLog
        let watcher: AssetWatcher

        /// `files` (paths inside `level`, each a PNG of its seed) loaded through the folder.
        init(_ files: [String: UInt64]) async throws {
            directory = try TemporaryDirectory("folder-watch")
            try FileManager.default.createDirectory(atPath: directory.file("level"), withIntermediateDirectories: true)
            for (file, seed) in files { try directory.write("level/" + file, Scene.png(seed: seed)) }
            coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
            let report = try await coordinator.preload([.folder(directory.file("level"), name: "level")])
            #expect(report.everythingLoaded && report.results.count == files.count, "\(report.errors)")
            let log = try ReloadLog(probeIn: directory)
            self.log = log
            watcher = try AssetWatcher(coordinator: coordinator, debounce: .milliseconds(150)) { log.record($0) }
            try watcher.watch(report)
        }

        /// The full path of `file` inside `level`.
        func path(_ file: String) -> String { directory.file("level/" + file) }

        /// Writes a PNG of `seed` to `file` inside `level` in one step: written beside `level`,
        /// then renamed into place. (Written in place, its creation, writes and close are
        /// several events; on a loaded machine the test's thread can pause between them for
        /// longer than the debounce, and the watcher then rightly reloads the file once more.)
        func write(_ file: String, seed: UInt64) throws {
            try FileManager.default.createDirectory(
                atPath: (path(file) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let whole = try directory.write("writing-\(UUID().uuidString)", Scene.png(seed: seed))
            guard rename(whole, path(file)) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }

        /// The pixels stored under `name`.
        func pixels(_ name: String) -> [UInt8]? { coordinator.assets.texture(named: name)?.pixels.array }

        deinit {
            watcher.stop()
            directory.remove()
        }
    }

    @Test func aFileAddedToAWalkedFolderLoadsUnderTheNameTheWalkGivesIt() async throws {
        let scene = try await FolderScene(["hero.png": 1])
        try scene.write("coin.png", seed: 2)
        try scene.write("deep/er/slime.png", seed: 3)  // in folders made since
        try scene.directory.write("level/notes.xyz", text: "no plugin claims this")
        try scene.write(".coin.png.swp", seed: 4)  // hidden, as the walk leaves it out
        let reloads = try await scene.log.settled(watcher: scene.watcher, "both files added") { reloads in
            Set(reloads.map(\.name)).isSuperset(of: ["level/coin.png", "level/deep/er/slime.png"])
        }
        #expect(
            reloads.map(\.description).sorted() == [
                "added level/coin.png (\(scene.path("coin.png")))", "added level/deep/er/slime.png (\(scene.path("deep/er/slime.png")))",
            ])
        #expect(reloads.allSatisfy { $0.isNew })
        #expect(scene.pixels("level/coin.png") == (try Scene.pixels(seed: 2)))
        #expect(scene.pixels("level/deep/er/slime.png") == (try Scene.pixels(seed: 3)))
        #expect(scene.watcher.watchedNames == ["level/coin.png", "level/deep/er/slime.png", "level/hero.png", "zz-probe"])

        // An added file is watched like the others; a sprite folder added is one atlas.
        try scene.write("deep/er/slime.png", seed: 5)
        try scene.write("hud.atlas/a.png", seed: 6)
        try scene.write("hud.atlas/b.png", seed: 7)
        let more = try await scene.log.settled(watcher: scene.watcher, "the edit and the atlas") { $0.count >= 4 }
        #expect(
            more.dropFirst(2).map(\.description).sorted() == [
                "added level/hud.atlas (\(scene.path("hud.atlas")))", "reloaded level/deep/er/slime.png (\(scene.path("deep/er/slime.png")))",
            ])
        #expect(scene.pixels("level/deep/er/slime.png") == (try Scene.pixels(seed: 5)))
        let atlas = try #require(scene.coordinator.assets.asset(named: "level/hud.atlas", as: TextureAtlas.self))
        #expect(atlas.frames.map(\.name).sorted() == ["a.png", "b.png"])
        // The store holds what loading the folder now would hold, under the same names.
        let fresh = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
        _ = try await fresh.preload([.folder(scene.path(""), name: "level")])
        #expect(scene.coordinator.assets.names.filter { $0 != ReloadLog.probeName } == fresh.assets.names)
        #expect(scene.coordinator.assets.dependencyNames == fresh.assets.dependencyNames)
    }

    @Test func aFolderDeletedAndMadeAgainIsWatchedAgain() async throws {
        let scene = try await FolderScene(["hero.png": 1, "sub/coin.png": 2])
        try FileManager.default.removeItem(atPath: scene.path(""))  // rm -rf level
        let gone = try await scene.log.settled(watcher: scene.watcher, "both files missing") { reloads in
            Set(reloads.map(\.name)) == ["level/hero.png", "level/sub/coin.png"]
        }
        #expect(
            Set(gone.map(\.description)) == [
                "missing level/hero.png (\(scene.path("hero.png"))): \(scene.path("hero.png")) is gone; the loaded asset stays",
                "missing level/sub/coin.png (\(scene.path("sub/coin.png"))): \(scene.path("sub/coin.png")) is gone; the loaded asset stays",
            ])
        #expect(scene.pixels("level/hero.png") == (try Scene.pixels(seed: 1)))

        // An exporter writes the folder again, with a file more.
        try scene.write("hero.png", seed: 11)
        try scene.write("sub/coin.png", seed: 12)
        try scene.write("sub/gem.png", seed: 13)
        let back = try await scene.log.settled(watcher: scene.watcher, "all three back") { reloads in
            reloads.dropFirst(gone.count).count { $0.asset != nil } >= 3
        }
        #expect(
            back.dropFirst(gone.count).map(\.description).sorted() == [
                "added level/sub/gem.png (\(scene.path("sub/gem.png")))", "reloaded level/hero.png (\(scene.path("hero.png")))",
                "reloaded level/sub/coin.png (\(scene.path("sub/coin.png")))",
            ])
        #expect(scene.pixels("level/hero.png") == (try Scene.pixels(seed: 11)))
        #expect(scene.pixels("level/sub/coin.png") == (try Scene.pixels(seed: 12)))
        #expect(scene.pixels("level/sub/gem.png") == (try Scene.pixels(seed: 13)))

        // The folders made again are watched: an edit inside reloads, a deletion is reported.
        try scene.write("sub/coin.png", seed: 14)
        try FileManager.default.removeItem(atPath: scene.path("hero.png"))
        let after = try await scene.log.settled(watcher: scene.watcher, "the edit and the deletion") { $0.count >= back.count + 2 }
        #expect(
            after.dropFirst(back.count).map(\.description).sorted() == [
                "missing level/hero.png (\(scene.path("hero.png"))): \(scene.path("hero.png")) is gone; the loaded asset stays",
                "reloaded level/sub/coin.png (\(scene.path("sub/coin.png")))",
            ])
        #expect(scene.pixels("level/sub/coin.png") == (try Scene.pixels(seed: 14)))
        #expect(scene.pixels("level/hero.png") == (try Scene.pixels(seed: 11)))
    }

    /// A file gone with its folder is reported missing once, not again when the folder comes
    /// back without it (with another file first, as an exporter writes); it reloads when back.
    @Test func aFileStillGoneWhenItsFolderIsBackIsReportedOnce() async throws {
        let scene = try await FolderScene(["hero.png": 1, "sub/coin.png": 2])
        try FileManager.default.removeItem(atPath: scene.path(""))
        let gone = try await scene.log.settled(watcher: scene.watcher, "both files missing") { $0.count >= 2 }
        try scene.write("other.png", seed: 20)  // the folder is back, with neither file
        let other = try await scene.log.settled(watcher: scene.watcher, "the other file added") { reloads in
            reloads.dropFirst(gone.count).contains { $0.name == "level/other.png" && $0.asset != nil }
        }
        try scene.write("hero.png", seed: 21)
        try scene.write("sub/coin.png", seed: 22)
        let all = try await scene.log.settled(watcher: scene.watcher, "both back") { reloads in
            reloads.dropFirst(other.count).count { $0.asset != nil } >= 2
        }
        for name in ["level/hero.png", "level/sub/coin.png"] {
            #expect(all.count { $0.name == name && $0.asset == nil } == 1, "\(name): \(all.map(\.description))")
        }
        #expect(scene.pixels("level/sub/coin.png") == (try Scene.pixels(seed: 22)))
    }

    @Test func aFileWhoseFolderAndItsParentAreMadeAgainReloads() async throws {
        let directory = try TemporaryDirectory("folder-watch")
        defer { directory.remove() }
        let path = try directory.write("out/art/hero.png", Scene.png(seed: 1))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
        let report = try await coordinator.preload([AssetRequest(path: path, name: "hero")])
        #expect(report.everythingLoaded, "\(report.errors)")
        let log = try ReloadLog(probeIn: directory)
        let watcher = try AssetWatcher(coordinator: coordinator, debounce: .milliseconds(150)) { log.record($0) }
        defer { watcher.stop() }
        try watcher.watch(report)
        try FileManager.default.removeItem(atPath: directory.file("out"))
        let gone = try await log.settled(watcher: watcher, "the file missing") { !$0.isEmpty }
        #expect(Set(gone.map(\.description)) == ["missing hero (\(path)): \(path) is gone; the loaded asset stays"])
        try directory.write("out/art/hero.png", Scene.png(seed: 2))  // out, then out/art, then the file
        let back = try await log.settled(watcher: watcher, "the file back") { $0.contains { $0.asset != nil } }
        #expect(back.dropFirst(gone.count).map(\.description) == ["reloaded hero (\(path))"])
        #expect(coordinator.assets.texture(named: "hero")?.pixels.array == (try Scene.pixels(seed: 2)))
        #expect(watcher.watchedFolderCount == 2)  // out/art and the probe's folder
    }
}
