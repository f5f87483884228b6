import Foundation
import Preload
import PreloadBaked
import PreloadTestSupport
import Testing

/// Hot reload of a baked pack: a new bake renamed over the old one swaps its assets in, as loose
/// reloads do, while assets from the old pack stay readable.
@Suite struct BakedReloadTests {
    @Test func aNewBakeRenamedOverThePackReloadsItsAssets() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.smallPack(in: directory)
        let coordinator = try BakedFixtures.coordinator()
        let report = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded)
        let old = try #require(coordinator.assets.texture(named: "art/b.png"))
        let reloads = Recorder<AssetReload>()
        let watcher = try AssetWatcher(coordinator: coordinator, debounce: .milliseconds(50)) { reloads.append($0) }
        try watcher.watch(report)

        // The artist changes b.png and bakes again: the new pack replaces the old by rename.
        try directory.write("art/b.png", PNGFixture.rgba(width: 3, height: 1, pixels: Array(repeating: 200, count: 12)))
        try await BakedFixtures.bake(BakedFixtures.smallPackSources(in: directory), to: pack)

        #expect(await reloads.wait(forCount: 4, seconds: 120), "every asset of the pack reloads: \(reloads.all)")
        let reloaded = Set(reloads.all.filter { $0.asset != nil }.map(\.name))
        #expect(reloaded == ["art/a.png", "art/b.png", "art/c.png", "art/notes.txt"], "\(reloads.all)")
        let new = try #require(coordinator.assets.texture(named: "art/b.png"))
        #expect(new.pixels == Array(repeating: 200, count: 12), "the store holds the new bake's pixels")
        #expect(old.pixels == Array(0..<12), "the old asset still reads the old file's pages")
        watcher.stop()
    }
}
