import Foundation
import Preload
import PreloadAtlas
import PreloadManifest
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import Testing

/// Loading and unloading the sample manifest's groups: what each load decodes, what the store
/// keeps, and the reference counts in between.
@Suite struct AssetGroupsTests {
    static let manifestPath = ManifestReadingTests.sampleAssets + "/levels.json"

    func groups() throws -> AssetGroups {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), PackLoader()])
        return AssetGroups(manifest: try AssetManifest(contentsOf: Self.manifestPath, registry: try TestPlugins.registry()), coordinator: coordinator)
    }

    @Test func levelsShareWhatTheyShareAndUnloadOnlyTheirOwn() async throws {
        let groups = try groups()
        let store = groups.coordinator.assets
        let level1 = try await groups.preload(["level1"])
        #expect(level1.everythingLoaded, "\(level1.errors)")
        #expect(groups.status.map(\.name) == ["common", "level1"])
        #expect(groups.status.map(\.isExplicit) == [false, true])
        // The page beside the atlas `ui` is named as a part of it, in the manifest's words.
        #expect("\(groups.status[0])" == "common (required): 4 assets: sprites/coin.png, sprites/hero.png, ui, ui#ui.png", "one line, sorted")
        // The store's hero is the file's pixels.
        let hero = try #require(store.texture(named: "sprites/hero.png"))
        let direct = try PNGDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: ManifestReadingTests.sampleAssets + "/sprites/hero.png"))))
        #expect(hero.pixels == direct.pixels && hero.width == direct.width)
        let level1Names = Set(store.names)
        #expect(level1Names.contains("creatures") && level1Names.contains("level1") && level1Names.contains("tiles/grass_tile.png"))
        // What the atlases and the pack brought is stored with them, and held by their group.
        let uiPage = ManifestReadingTests.sampleAssets + "/atlases/ui/ui.png"
        #expect(Set(store.dependencyNames).isSuperset(of: ["level1#level.json", "level1#hud/hud.png", "creatures/bat.png", "ui#ui.png"]))
        #expect(store.entry(named: uiPage)?.name == "ui#ui.png", "found by its path as well")
        // The pack's atlas names its page as the pack names that entry: one asset, one name.
        let pagePath = ManifestReadingTests.sampleAssets + "/packs/level1.pak#hud/hud.png"
        #expect(!store.dependencyNames.contains(pagePath), "\(store.dependencyNames)")
        #expect(store.entry(named: pagePath)?.name == "level1#hud/hud.png", "found by its path, under its one name")

        // extras requires common (held) and names a tile level1's folder holds: neither loads again.
        let extras = try await groups.preload(["extras"])
        #expect(extras.everythingLoaded, "\(extras.errors)")
        #expect(Set(extras.results.map(\.request.name)) == ["extras", "sprites/slime.png", "masks/light_mask.png"])
        let mask = try #require(store.texture(named: "masks/light_mask.png"))
        #expect(mask.alphaMode == .premultiplied)
        let counts = Dictionary(uniqueKeysWithValues: groups.status.map { ($0.name, $0.assets) })
        #expect(counts["extras"]?["tiles/grass_tile.png"] == 2)
        #expect(counts["common"]?["sprites/hero.png"] == 1)
        #expect(counts["level1"]?["backgrounds/forest.png"] == 1)

        // Unloading level1 keeps common (extras requires it) and the shared tile.
        #expect(throws: ManifestError.self) { try groups.unload("common") }
        // A typo is an error, as it is for preload.
        #expect { try groups.unload("levle1") } throws: { "\($0)".contains("no group named 'levle1'") }
        let removed = Set(try groups.unload("level1"))
        #expect(try groups.unload("level1").isEmpty, "a group no longer loaded unloads nothing")
        #expect(removed.contains("backgrounds/forest.png") && removed.contains("creatures") && removed.contains("level1"))
        #expect(!removed.contains("tiles/grass_tile.png") && !removed.contains("sprites/hero.png"))
        #expect(removed.isSuperset(of: ["level1#level.json", "creatures/bat.png", "tiles/stone_gray.png"]) && !removed.contains(uiPage))
        #expect(store.entry(named: uiPage) != nil)
        for name in removed { #expect(store.entry(named: name) == nil, "\(name) is still stored") }
        #expect(store.texture(named: "tiles/grass_tile.png") != nil && store.texture(named: "sprites/hero.png") != nil)
        #expect(groups.status.map(\.name) == ["common", "extras"])
        #expect(groups.status.first { $0.name == "extras" }?.assets["tiles/grass_tile.png"] == 1)

        // Unloading extras takes common with it: nobody asked for common by name.
        try groups.unload("extras")
        #expect(groups.status.isEmpty)
        #expect(store.names.isEmpty && store.dependencyNames.isEmpty, "left in the store: \(store.names + store.dependencyNames)")
    }

    @Test func loadingAGroupAgainDecodesNothingAndAnExplicitGroupStays() async throws {
        let groups = try groups()
        _ = try await groups.preload(["common", "extras"])
        let again = try await groups.preload(["extras"])
        #expect(again.results.isEmpty)
        try groups.unload("extras")
        #expect(groups.status.map(\.name) == ["common"])  // asked for by name: stays
        #expect(groups.coordinator.assets.texture(named: "sprites/hero.png") != nil)
        #expect(groups.coordinator.assets.texture(named: "sprites/slime.png") == nil)
    }

    @Test func theCallbackAndEventStylesRecordTheGroupBeforeTheyReport() async throws {
        let groups = try groups()
        let recorded = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
            do {
                try groups.preload(["common"]) { _ in continuation.resume(returning: groups.isLoaded("common")) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        #expect(recorded)
        let (_, events) = try groups.events(["level1"])
        var loadedEvents = 0
        for await event in events {
            switch event {
            case .assetLoaded: loadedEvents += 1
            case .completed(let report):
                #expect(report.everythingLoaded)
                #expect(groups.isLoaded("level1"))
            default: break
            }
        }
        #expect(loadedEvents > 4)
        #expect(throws: ManifestError.self) { try groups.events(["level9"]) }
    }
}
