import Foundation
import Preload
import PreloadAtlas
import PreloadAudio
import PreloadFont
import PreloadTileMap
import PreloadManifest
import PreloadPack
import PreloadTestSupport
import Testing

/// Reading Phaser asset packs: sections, URLs against the web root, types, and what is skipped.
@Suite struct PhaserPackReadingTests {
    @Test func sectionsAreGroupsAndURLsResolveAgainstTheWebRootNotThePack() throws {
        let project = try PhaserProject()
        defer { project.directory.remove() }
        let manifest = try AssetManifest(contentsOf: project.pack, registry: try TestPlugins.registry(), webRoot: project.root)
        #expect(manifest.dialect == .phaserPack)
        #expect(manifest.groups.map(\.name) == ["boot", "level1"])  // file order; meta is not a section

        let boot = try #require(manifest.group(named: "boot")).entries.map(\.request)
        #expect(boot.map(\.name) == ["sky", "items"])
        #expect(boot.map(\.path) == [project.file("assets/images/sky.png"), project.file("assets/data/items.json")])  // query dropped
        #expect(boot.map(\.plugin) == [nil, "json"])

        let level1 = try #require(manifest.group(named: "level1")).entries.map(\.request)
        #expect(
            level1.map(\.name) == [
                "l1.hero", project.file("assets/images/hero_n.png"), "l1.ui", "l1.creatures", "l1.coin", "l1.level", "l1.tiles", "l1.theme",
                "l1.sfx", "l1.font", "l1.map", "l1.grid",
            ])
        #expect(level1[0].path == project.file("assets/images/hero.png"))
        #expect(level1[2].path == project.file("assets/atlas/ui.json") && level1[2].plugin == "atlas")
        #expect(level1[2].options[AtlasPageLocation.self] == .files([project.file("assets/atlas/ui-sheet.png")]))
        #expect(level1[3].path == project.file("assets/data/creatures.json"))
        #expect(level1[3].options[AtlasPageLocation.self] == .folder(project.file("assets/atlas/")))
        #expect(level1[4].options[SpriteSheetGrid.self] == SpriteSheetGrid(frameWidth: 16, frameHeight: 8, endFrame: 4, margin: 1, spacing: 2))
        #expect(level1[5].plugin == "data")
        #expect(level1[6].path == project.file("assets/tiles.png"))  // no url: path + key (unprefixed) + .png
        #expect(level1[7].path == project.file("assets/audio/theme.wav") && level1[7].plugin == "audio")  // .m4a: no plugin decodes it
        #expect(level1[8].path == project.file("assets/audio/sfx.wav") && level1[8].plugin == "audio")
        #expect(level1[8].options[AudioSpriteMap.self] == AudioSpriteMap(path: project.file("assets/audio/sfx.json")))

        #expect(level1[9].path == project.file("assets/fonts/f.xml") && level1[9].plugin == "bmfont")
        #expect(level1[9].options[BitmapFontPages.self] == BitmapFontPages(files: [project.file("assets/fonts/f.png")]))
        #expect(level1[10].path == project.file("assets/maps/level.json") && level1[10].plugin == "tilemap")
        #expect(level1[11].plugin == "tilemap" && level1[11].options[TileMapLoaderSettings.self] == TileMapLoaderSettings(tileWidth: 32))

        #expect(manifest.notices.map(\.kind) == [.notOnDisk, .keyRepeated, .unsupportedType])
        #expect(manifest.notices.map(\.type) == ["image", "image", "video"])
        #expect(
            manifest.notices.map(\.description) == [
                "\(project.pack): group 'level1': entry 10 ('l1.banner'): image: not loaded: //cdn.example.com/banner.png is neither a file on disk nor an http or https URL",
                "\(project.pack): group 'level1': entry 11 ('l1.hero'): image: not loaded: the key 'l1.hero' was given first in group 'level1' entry 1, which is kept",
                "\(project.pack): group 'level1': entry 12 ('l1.intro'): video: skipped: no Preload plugin loads 'video' files",
            ])
        #expect(try manifest.notices(for: ["boot"]).isEmpty)
        #expect(
            manifest.problems(registry: try PluginRegistry([DataFileLoader.raw, DataFileLoader.json])).map(\.problem).contains {
                $0.contains("no plugin loads") && $0.contains("sky.png")
            })
    }

    /// An audio entry's list of URLs: the first whose file exists (and this machine decodes), as
    /// Phaser plays the first the browser can; a game that ships only the mp3 of `[ogg, mp3]`
    /// gets the mp3. None existing: the first that decodes is requested, with a warning.
    @Test func anAudioURLListLoadsTheFirstOfItsFilesThatExists() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("audio/theme.mp3", [0xFF, 0xFB, 0x90, 0x00])
        try directory.write("audio/jump.wav", PhaserProject.wav(frames: 8))
        let pack = try directory.write(
            "pack.json",
            text: """
                { "s": { "path": "audio/", "files": [
                    { "type": "audio", "key": "theme", "url": ["theme.ogg", "theme.mp3"] },
                    { "type": "audio", "key": "jump", "url": [{"url": "jump.ogg", "type": "ogg"}, {"url": "jump.wav", "type": "wav"}] },
                    { "type": "audio", "key": "gone", "url": ["gone.m4a", "gone.wav"] } ] } }
                """)
        let manifest = try AssetManifest(contentsOf: pack, registry: try TestPlugins.registry(), webRoot: directory.path)
        let requests = try #require(manifest.group(named: "s")).entries.map(\.request)
        #expect(requests.map(\.path) == ["audio/theme.mp3", "audio/jump.wav", "audio/gone.wav"].map(directory.file))
        #expect(manifest.notices.map(\.kind) == [.noListedFileExists] && manifest.notices.allSatisfy(\.isWarning))
        #expect(
            manifest.notices.first?.description
                == "\(pack): group 's': entry 3 ('gone'): audio: none of its URLs is a file here (\(directory.file("audio/gone.m4a")), "
                + "\(directory.file("audio/gone.wav"))): \(directory.file("audio/gone.wav")) is requested")
    }

    @Test func withoutAWebRootURLsStayRelativeToTheCurrentDirectory() throws {
        let project = try PhaserProject()
        defer { project.directory.remove() }
        let manifest = try AssetManifest(contentsOf: project.pack, registry: try TestPlugins.registry())
        #expect(manifest.group(named: "boot")?.entries.first?.request.path == "assets/images/sky.png")
        #expect(manifest.group(named: "level1")?.entries[3].request.options[AtlasPageLocation.self] == .folder("assets/atlas/"))
    }

    @Test func olderPacksAreListsOfSectionsAndBaseURLsJoinPaths() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pack = try directory.write(
            "pack.json",
            text: """
                [ { "baseURL": "game", "path": "img", "files": [ { "type": "image", "key": "a" },
                                                              { "type": "image", "key": "b", "url": "/top/b.png" },
                                                              { "type": "image", "key": "c", "url": "//cdn.example.com/c.png" },
                                                              { "type": "image", "key": "d", "url": "data:image/png;base64,iVBORw0KGgo=" },
                                                              { "type": "image", "key": "e", "url": "my%20file.png#x" } ] },
                  { "files": [ { "type": "spine", "key": "boy", "url": "boy.json" } ] } ]
                """)
        let manifest = try AssetManifest(contentsOf: pack, registry: try TestPlugins.registry(), webRoot: "/srv/www")
        #expect(manifest.groups.map(\.name) == ["0", "1"])
        #expect(
            manifest.groups[0].entries.map(\.request.path) == [
                "/srv/www/game/img/a.png", "/srv/www/game/img//top/b.png", "/srv/www/game/img/my file.png",
            ])
        #expect(manifest.notices.map(\.kind) == [.notOnDisk, .notOnDisk, .unsupportedType])
        #expect(manifest.groups[1].entries.isEmpty)
    }

    @Test func entriesPhaserRefusesAreErrorsNamingTheSectionAndEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(files: String, message: String)] = [
            (#"["logo.png"]"#, "group 's': entry 1: is not an object"),
            (#"[{"type": "image", "url": "a.png"}]"#, "group 's': entry 1: 'key' is missing or empty"),
            (#"[{"type": "spritesheet", "key": "coin"}]"#, "group 's': entry 1 ('coin'): 'frameConfig' is missing or not an object"),
            (
                #"[{"type": "spritesheet", "key": "coin", "frameConfig": {"frameHeight": 8}}]"#,
                "group 's': entry 1 ('coin'): 'frameConfig': 'frameWidth' is missing"
            ),
            (
                #"[{"type": "spritesheet", "key": "coin", "frameConfig": {"frameWidth": 8.5}}]"#,
                "group 's': entry 1 ('coin'): 'frameConfig': 'frameWidth' must be a whole number from 1 to 2147483647"
            ),
        ]
        for (index, item) in cases.enumerated() {
            let pack = try directory.write("pack\(index).json", text: #"{"s": {"files": "# + item.files + "}}")
            #expect(throws: ManifestError.self) { try AssetManifest(contentsOf: pack, registry: try TestPlugins.registry()) }
            do {
                _ = try AssetManifest(contentsOf: pack, registry: try TestPlugins.registry())
            } catch {
                #expect("\(error)" == "\(pack): \(item.message)")
            }
        }
        let empty = try directory.write("empty.json", text: #"{"meta": {"app": "x"}, "s": {"path": "a/"}}"#)
        #expect(throws: ManifestError.self) { try AssetManifest(contentsOf: empty, registry: try TestPlugins.registry()) }
    }
}
