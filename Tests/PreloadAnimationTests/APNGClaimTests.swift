import Foundation
import Preload
import PreloadAnimation
import PreloadAuthoring
import PreloadBaked
import PreloadManifest
import PreloadPNG
import PreloadTestSupport
import Testing

/// Who loads an APNG: a `.png` stays the PNG plugin's texture (its default image) exactly as
/// without the APNG plugin; the animation comes when asked for: a `.apng` file, a request naming
/// `apng`, a manifest entry's `"plugin": "apng"`.
@Suite struct APNGClaimTests {
    static let plugins: [any LoaderPlugin] = [PNGLoader(), APNGLoader()]

    static func file() throws -> [UInt8] {
        try APNGFixture.animation(
            width: 2, height: 1, frames: [.solid(2, 1, [0, 255, 0, 255]), .solid(1, 1, [0, 0, 255, 255])],
            defaultImage: [255, 0, 0, 255, 9, 9, 9, 255]
        ).bytes
    }

    @Test func aPNGRequestedAsATextureStaysTheDefaultImageAsWithoutThePlugin() async throws {
        let directory = try TemporaryDirectory("apng-claim-texture")
        try directory.write("hero.png", try Self.file())
        let alone = try PreloadCoordinator(plugins: [PNGLoader()]), both = try PreloadCoordinator(plugins: Self.plugins)
        let before = try await alone.preload([.folder(directory.path, name: "art")])
        let after = try await both.preload([.folder(directory.path, name: "art")])
        #expect(after.everythingLoaded && after.warned.isEmpty && after.results.map(\.plugin) == ["png"])
        #expect(before.results.map(\.plugin) == after.results.map(\.plugin))
        let texture = try #require(both.assets.asset(named: "art/hero.png", as: Texture.self))
        #expect(texture.pixels == alone.assets.asset(named: "art/hero.png", as: Texture.self)?.pixels)
        #expect(texture.pixels == [255, 0, 0, 255, 9, 9, 9, 255])
    }

    @Test func aRequestNamingTheAPNGPluginOrAnAPNGExtensionLoadsTheAnimation() async throws {
        let directory = try TemporaryDirectory("apng-claim-animation")
        try directory.write("hero.png", try Self.file())
        try directory.write("coin.apng", try Self.file())
        let coordinator = try PreloadCoordinator(plugins: Self.plugins)
        let report = try await coordinator.preload([
            AssetRequest(path: directory.file("hero.png"), name: "hero", plugin: "apng"),
            AssetRequest(path: directory.file("coin.apng"), name: "coin"),
        ])
        #expect(report.everythingLoaded && report.warned.isEmpty && report.results.map(\.plugin) == ["apng", "apng"])
        for name in ["hero", "coin"] {
            let animation = try #require(coordinator.assets.asset(named: name, as: SpriteAnimation.self))
            #expect(animation.frames.count == 2 && animation.canvasPixels(ofFrame: 1) == [0, 0, 255, 255, 0, 255, 0, 255])
        }
    }

    @Test func aManifestEntryNamingTheAPNGPluginLoadsTheAnimation() async throws {
        let directory = try TemporaryDirectory("apng-claim-manifest")
        try directory.write("art/hero.png", try Self.file())
        let manifest = try directory.write(
            "manifest.json",
            text: #"{"root": "art", "groups": {"level": {"assets": ["hero.png", {"path": "hero.png", "name": "walk", "plugin": "apng"}]}}}"#)
        let read = try AssetManifest(contentsOf: manifest, registry: try PluginRegistry(Self.plugins))
        let groups = AssetGroups(manifest: read, coordinator: try PreloadCoordinator(plugins: Self.plugins))
        let report = try await groups.preload(["level"])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(groups.coordinator.assets.asset(named: "hero.png", as: Texture.self) != nil)
        #expect(groups.coordinator.assets.asset(named: "walk", as: SpriteAnimation.self)?.frames.count == 2)
    }

    /// An APNG bakes as every animation does and loads back from the pack, its pages mapped.
    @Test func anAPNGBakesAndLoadsBackFromThePack() async throws {
        let directory = try TemporaryDirectory("apng-claim-bake")
        try directory.write("art/coin.apng", try Self.file())
        let loose = try PreloadCoordinator(plugins: Self.plugins)
        let report = try await loose.preload([.folder(directory.file("art"), name: "art")])
        let pack = directory.file("art.bake")
        try BakeWriter.write(report, to: pack)
        let baked = try PreloadCoordinator(plugins: [APNGLoader(), BakedPackLoader()])
        #expect(try await baked.preload([AssetRequest(path: pack)]).everythingLoaded)
        let back = try #require(baked.assets.asset(named: "art/coin.apng", as: SpriteAnimation.self))
        let original = try #require(loose.assets.asset(named: "art/coin.apng", as: SpriteAnimation.self))
        #expect(back.frames == original.frames && back.loopCount == original.loopCount && back.pages.allSatisfy { $0.pixels.isMapped })
        #expect(back.canvasPixels(ofFrame: 1) == original.canvasPixels(ofFrame: 1))
    }
}
