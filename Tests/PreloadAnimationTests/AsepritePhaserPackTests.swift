import Foundation
import Preload
import PreloadAnimation
import PreloadManifest
import PreloadPNG
import PreloadTestSupport
import Testing

/// A Phaser pack's `aseprite` entry (`load.aseprite(key, textureURL, atlasURL)`) loads the
/// export as an animation, its sheet the entry's `textureURL`, not the file its JSON names.
@Suite struct AsepritePhaserPackTests {
    @Test func anAsepriteEntryLoadsItsExportWithTheEntrysTexture() async throws {
        let directory = try TemporaryDirectory("aseprite-phaser-pack")
        let reference = try AsepriteSheetLoaderTests.reference()
        try directory.write("art/hero-sheet.png", AsepriteSheetLoaderTests.sheet(reference).png)
        try directory.write("art/hero.json", text: AsepriteSheetLoaderTests.array())  // names hero.png, which is not there
        let pack = try directory.write(
            "pack.json",
            text:
                #"{"level": {"path": "art/", "files": [{"type": "aseprite", "key": "hero", "textureURL": "hero-sheet.png", "atlasURL": "hero.json"}]}}"#
        )
        let plugins: [any LoaderPlugin] = [PNGLoader(), AsepriteSheetLoader()]
        let manifest = try AssetManifest(contentsOf: pack, registry: try PluginRegistry(plugins), webRoot: directory.path)
        let groups = AssetGroups(manifest: manifest, coordinator: try PreloadCoordinator(plugins: plugins))
        let report = try await groups.preload(["level"])
        #expect(report.everythingLoaded && report.warned.isEmpty, "\(report.errors)")
        let hero = try #require(groups.coordinator.assets.asset(named: "hero", as: SpriteAnimation.self))
        #expect(hero.frames == reference.frames && hero.tags == reference.tags)
    }
}
