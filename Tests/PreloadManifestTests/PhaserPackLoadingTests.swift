import Foundation
import Preload
import PreloadAtlas
import PreloadAudio
import PreloadFont
import PreloadTileMap
import PreloadManifest
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import Testing

/// Loading a Phaser project's pack as it is: every type's asset holds the right file's pixels.
@Suite struct PhaserPackLoadingTests {
    static func coordinator() throws -> PreloadCoordinator {
        try PreloadCoordinator(plugins: [
            PNGLoader(), AtlasLoader(), BitmapFontLoader(), TileMapLoader(), PackLoader(), AudioLoader(), DataFileLoader.raw,
            DataFileLoader.json,
        ])
    }

    func decoded(_ project: PhaserProject, _ name: String) throws -> Texture { try PNGDecoder.decode(try project.bytes(name)) }

    @Test func everyLoadableTypeLoadsFromTheFilesThePackNames() async throws {
        let project = try PhaserProject()
        defer { project.directory.remove() }
        let groups = AssetGroups(
            manifest: try AssetManifest(contentsOf: project.pack, registry: try TestPlugins.registry(), webRoot: project.root),
            coordinator: try Self.coordinator())
        let store = groups.coordinator.assets
        let report = try await groups.preload(["boot", "level1"])
        #expect(report.everythingLoaded, "\(report.errors)")

        #expect(store.texture(named: "sky")?.pixels == (try decoded(project, "assets/images/sky.png")).pixels)
        #expect(store.texture(named: "l1.hero")?.pixels == (try decoded(project, "assets/images/hero.png")).pixels)
        #expect(store.texture(named: project.file("assets/images/hero_n.png"))?.pixels == (try decoded(project, "assets/images/hero_n.png")).pixels)
        #expect(store.texture(named: "l1.tiles")?.width == 8)  // assets/tiles.png, not assets/l1.tiles.png

        // The atlas's page is the pack's textureURL, not the ui.png its JSON names.
        let ui = try #require(store.asset(named: "l1.ui", as: TextureAtlas.self))
        #expect(ui.pages.map(\.path) == [project.file("assets/atlas/ui-sheet.png")])
        #expect(ui.pages[0].texture.pixels == (try decoded(project, "assets/atlas/ui-sheet.png")).pixels)

        // The multiatlas JSON sits in data/; its pages are found in the entry's path, atlas/.
        let creatures = try #require(store.asset(named: "l1.creatures", as: TextureAtlas.self))
        #expect(creatures.pages.map(\.path) == [project.file("assets/atlas/creatures-0.png"), project.file("assets/atlas/creatures-1.png")])
        let slime = try creatures.image(of: try #require(creatures.frame(named: "slime")))
        let page1 = try decoded(project, "assets/atlas/creatures-1.png")
        #expect(slime.pixels.array == crop(page1, x: 8, y: 8, width: 8, height: 8))

        // The sprite sheet: 52x30, 16x8 frames, margin 1, spacing 2 -> 2 columns, 3 rows; 0...4 kept.
        let coin = try #require(store.asset(named: "l1.coin", as: TextureAtlas.self))
        #expect(coin.format == .spriteSheet)
        #expect(coin.frames.map(\.name) == ["0", "1", "2", "3", "4"])
        #expect(coin.frames.map(\.rect) == [(1, 1), (19, 1), (1, 11), (19, 11), (1, 21)].map { PixelRect(x: $0.0, y: $0.1, width: 16, height: 8) })
        let sheet = try decoded(project, "assets/sheets/coin.png")
        #expect(try coin.image(of: coin.frames[3]).pixels.array == crop(sheet, x: 19, y: 11, width: 16, height: 8))

        #expect(store.asset(named: "items", as: DataAsset.self)?.bytes.array == (try project.bytes("assets/data/items.json")))
        #expect(store.asset(named: "l1.level", as: DataAsset.self)?.bytes.array == (try project.bytes("assets/data/level.bin")))
        #expect(store.entry(named: "l1.banner") == nil)

        // The bitmap font's page is the pack's textureURL, not the font.png its XML names.
        let font = try #require(store.asset(named: "l1.font", as: BitmapFont.self))
        #expect(font.format == .xml && font.pages.map(\.path) == [project.file("assets/fonts/f.png")])
        #expect(font.pages[0].texture.pixels == (try decoded(project, "assets/fonts/f.png")).pixels)
        #expect(font.layOut("AV").width == 11 && font.glyph(for: "V")?.x == 6)

        // The Tiled map and its tileset's image; the CSV grid as a one-layer map of 32x32 tiles.
        let map = try #require(store.asset(named: "l1.map", as: TileMap.self))
        #expect(map.tilesets.first?.image?.texture?.pixels == (try decoded(project, "assets/tiles.png")).pixels)
        let flipped = try #require(map.layer(named: "ground")?.tiles?.tile(column: 1, row: 1))
        let resolved = map.tile(for: flipped)
        #expect(resolved?.rect == TileRect(x: 4, y: 4, width: 4, height: 4) && resolved?.flips.contains(.horizontal) == true)
        let grid = try #require(store.asset(named: "l1.grid", as: TileMap.self))
        #expect(grid.width == 2 && grid.height == 2 && grid.tileWidth == 32 && grid.layers.count == 1)

        // Audio: the theme's first URL that decodes (its .m4a does not), the sprite with its markers.
        let theme = try #require(store.asset(named: "l1.theme", as: Sound.self))
        let themeFile = try project.bytes("assets/audio/theme.wav")
        #expect(theme.frameCount == 8000 && theme.samples.array == Array(themeFile.dropFirst(44)))
        let sfx = try #require(store.asset(named: "l1.sfx", as: Sound.self))
        #expect(sfx.ranges == ["jump": SoundRange(frames: 0..<4000), "coin": SoundRange(frames: 8000..<14000, loops: true)])

        // Unloading the level keeps boot's assets and drops the level's pages with it.
        let removed = Set(try groups.unload("level1"))
        #expect(removed.isSuperset(of: ["l1.coin", "l1.ui", project.file("assets/atlas/creatures-0.png")]))
        #expect(store.texture(named: "sky") != nil && store.entry(named: "l1.coin") == nil)
    }

    /// A game without the audio plugin (or the font plugin) loads the pack's level: its sounds
    /// and fonts are skipped with a notice, as types without a plugin are, not failures.
    @Test func entriesWhosePluginIsNotRegisteredAreSkippedWithANotice() async throws {
        let project = try PhaserProject()
        defer { project.directory.remove() }
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader(), TileMapLoader(), DataFileLoader.raw, DataFileLoader.json])
        let groups = AssetGroups(
            manifest: try AssetManifest(contentsOf: project.pack, registry: try TestPlugins.registry(), webRoot: project.root),
            coordinator: coordinator)
        let report = try await groups.preload(["level1"])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(groups.isLoaded("level1") && coordinator.assets.texture(named: "l1.hero") != nil)
        #expect(coordinator.assets.entry(named: "l1.theme") == nil && coordinator.assets.entry(named: "l1.font") == nil)
        let skipped = groups.manifest.notices.filter { $0.kind == .pluginNotRegistered }
        #expect(skipped.map(\.type) == ["audio", "audioSprite", "bitmapFont"] && !skipped.contains(where: \.isWarning))
        #expect(
            skipped.first?.description
                == "\(project.pack): group 'level1': entry 7 ('l1.theme'): audio: skipped: no 'audio' plugin is registered with the coordinator "
                + "(register PreloadAudio's AudioLoader to load it)")
        // Preload's own dialect means the plugin it names: without it the entry fails.
        let own = try project.directory.write("levels.json", text: #"{"groups": {"g": {"assets": [{"path": "x.ogg", "plugin": "audio"}]}}}"#)
        #expect(
            AssetGroups(manifest: try AssetManifest(contentsOf: own, registry: try TestPlugins.registry()), coordinator: coordinator).manifest.groups[
                0
            ].entries.count == 1)
    }

    @Test func damagedDataFailsByNameAndTheRestLoads() async throws {
        let project = try PhaserProject()
        defer { project.directory.remove() }
        try project.directory.write("assets/data/items.json", text: "{\"items\": [1, 2,")  // cut short
        try project.directory.write("assets/atlas/ui-sheet.png", Array(try project.bytes("assets/atlas/ui-sheet.png").prefix(60)))
        try FileManager.default.removeItem(atPath: project.file("assets/atlas/creatures-1.png"))
        let manifest = try AssetManifest(contentsOf: project.pack, registry: try TestPlugins.registry(), webRoot: project.root)
        let report = try await Self.coordinator().preload(try manifest.requests(for: []))
        let failed = Dictionary(uniqueKeysWithValues: report.results.compactMap { result in result.outcome.error.map { (result.request.name, $0) } })
        #expect(Set(failed.keys) == ["items", "l1.ui", "l1.creatures"])
        #expect(failed["items"]?.category == .corrupt && failed["items"]?.description.contains("not valid JSON") == true)
        #expect(failed["items"]?.description.contains("items.json") == true)
        #expect(failed["l1.ui"]?.description.contains("ui-sheet.png") == true)
        #expect(failed["l1.creatures"]?.description.contains("creatures-1.png") == true)
        #expect(report.results.filter { $0.outcome.asset != nil }.map(\.request.name).contains("l1.coin"))

        // manifest check names the missing page file it can see (an atlas's textureURL) too.
        try FileManager.default.removeItem(atPath: project.file("assets/atlas/ui-sheet.png"))
        let problems = manifest.problems(registry: try Self.coordinator().registry).map(\.description)
        #expect(problems == ["\(project.pack): group 'level1': entry 2 ('l1.ui'): \(project.file("assets/atlas/ui-sheet.png")) does not exist"])
    }

    /// The RGBA8 pixels of a rectangle of `texture`, row by row.
    func crop(_ texture: Texture, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        let pixels = texture.pixels.array
        var cropped: [UInt8] = []
        for row in y..<(y + height) {
            let start = (row * texture.width + x) * 4
            cropped += pixels[start..<(start + width * 4)]
        }
        return cropped
    }
}
