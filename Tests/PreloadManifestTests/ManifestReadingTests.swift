import Foundation
import Preload
import PreloadAudio
import PreloadManifest
import PreloadPNG
import PreloadTestSupport
import PreloadTileMap
import Testing

/// Reading Preload's manifest dialect: groups in the file's order, paths resolved against the
/// manifest's folder, names as written, options read by their plugins' readers, and every
/// mistake named by manifest, group and entry.
@Suite struct ManifestReadingTests {
    static let sampleAssets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-assets").path

    @Test func anEntrySaysWhetherItsAudioIsASoundOrMusic() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "levels.json",
            text:
                #"{"groups": {"a": {"assets": [{"path": "theme.ogg", "options": {"audio": {"kind": "music", "samples": "float32"}}}, "jump.wav"]}}}"#)
        let requests = try AssetManifest(contentsOf: path, registry: try TestPlugins.registry()).requests(for: ["a"])
        #expect(requests[0].options[AudioLoaderSettings.self] == AudioLoaderSettings(kind: .music, sampleFormat: .float32))
        #expect(!requests[1].options.contains(AudioLoaderSettings.self))
        let wrong = try directory.write(
            "wrong.json", text: #"{"groups": {"a": {"assets": [{"path": "x.ogg", "options": {"audio": {"kind": "stream"}}}]}}}"#)
        #expect(throws: (any Error).self) { try AssetManifest(contentsOf: wrong, registry: try TestPlugins.registry()) }
    }

    @Test func aCSVGridSaysItsTileSize() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("grid.csv", text: "0,1,2\n-1,3,4\n")
        let path = try directory.write(
            "levels.json",
            text:
                #"{"groups": {"a": {"assets": [{"path": "grid.csv", "plugin": "tilemap", "options": {"tilemap": {"tileWidth": 16, "tileHeight": 8}}}]}}}"#
        )
        let requests = try AssetManifest(contentsOf: path, registry: try TestPlugins.registry()).requests(for: ["a"])
        #expect(requests[0].options[TileMapLoaderSettings.self] == TileMapLoaderSettings(tileWidth: 16, tileHeight: 8))
        let coordinator = try PreloadCoordinator(plugins: [TileMapLoader()])
        _ = try await coordinator.preload(requests)
        let map = try #require(coordinator.assets.asset(atPath: directory.file("grid.csv")) as? TileMap)
        #expect(map.width == 3 && map.height == 2 && map.tileWidth == 16 && map.tileHeight == 8)
        let wrong = try directory.write(
            "wrong.json", text: #"{"groups": {"a": {"assets": [{"path": "grid.csv", "options": {"tilemap": {"numbering": "hex"}}}]}}}"#)
        #expect(throws: (any Error).self) { try AssetManifest(contentsOf: wrong, registry: try TestPlugins.registry()) }
    }

    @Test func theSampleManifestReadsInItsOwnOrderWithNamesAsWritten() throws {
        let manifest = try AssetManifest(contentsOf: Self.sampleAssets + "/levels.json", registry: try TestPlugins.registry())
        #expect(manifest.groups.map(\.name) == ["common", "level1", "extras"])
        #expect(manifest.group(named: "level1")?.requires == ["common"])
        let requests = try manifest.requests(for: ["extras"])
        #expect(
            requests.map(\.name) == [
                "sprites/hero.png", "sprites/coin.png", "ui", "extras", "sprites/slime.png", "tiles/grass_tile.png", "masks/light_mask.png",
            ])
        #expect(requests[0].path == Self.sampleAssets + "/sprites/hero.png")
        #expect(requests[6].options[PNGLoaderSettings.self].alphaMode == .premultiplied)
        #expect(requests[0].options[PNGLoaderSettings.self].alphaMode == .straight)
        let folder = try #require(manifest.group(named: "level1")?.entries[1].request)
        #expect(folder.isFolder && folder.name == "tiles" && folder.path == Self.sampleAssets + "/tiles")
        // Every group, required ones first, each once.
        #expect(try manifest.resolve([]).map(\.name) == ["common", "level1", "extras"])
        #expect(try manifest.resolve(["extras", "level1"]).map(\.name) == ["common", "extras", "level1"])
    }

    @Test func keyOrderIsTheFilesEvenWhereJSONSerializationForgetsIt() throws {
        let directory = try TemporaryDirectory()
        // Escaped keys too: "m\u00e9nu" is ménu, "b\"q" is b"q.
        let path = try directory.write(
            "order.json",
            text: #"""
                {"groups": {
                  "zeta": {"assets": [], "requires": ["alpha"]},
                  "alpha": {"assets": ["a.png"]},
                  "m\u00e9nu": {"assets": [], "requires": ["alpha"]},
                  "b\"q": {"assets": [], "requires": ["alpha"]},
                  "level10": {"assets": [], "requires": ["alpha"]},
                  "level2": {"assets": [], "requires": ["alpha"]}
                }}
                """#)
        let manifest = try AssetManifest(contentsOf: path, registry: try TestPlugins.registry())
        #expect(manifest.groups.map(\.name) == ["zeta", "alpha", "ménu", "b\"q", "level10", "level2"])
    }

    @Test(arguments: [
        (#"{"groups": {"a": {"assets": ["x.png"]}}, "grups": {}}"#, "m.json: unknown key 'grups' (known: groups, root)"),
        (#"{"groups": {"a": {"asets": []}}}"#, "m.json: group 'a': unknown key 'asets' (known: assets, requires)"),
        (#"{"groups": {"a": {"assets": [7]}}}"#, "m.json: group 'a': entry 1: is neither a path nor an object"),
        (#"{"groups": {"a": {"assets": [{"name": "x"}]}}}"#, "m.json: group 'a': entry 1: 'path' is missing or not a string"),
        (
            #"{"groups": {"a": {"assets": ["ok.png", {"path": "h.png", "options": {"png": {"alpha": "pre"}}}]}}}"#,
            #"m.json: group 'a': entry 2 ('h.png'): 'options': 'png': 'alpha' must be one of "straight", "premultiplied""#
        ),
        (
            #"{"groups": {"a": {"assets": [{"path": "h.png", "options": {"png": {"keep16bit": true}}}]}}}"#,
            "m.json: group 'a': entry 1 ('h.png'): 'options': 'png': unknown option 'keep16bit'"
        ),
        (
            #"{"groups": {"a": {"assets": [{"path": "h.png", "options": {"pgn": {}}}]}}}"#,
            "m.json: group 'a': entry 1 ('h.png'): no plugin's options are called 'pgn' (known: atlas, audio, bmfont, png, tilemap)"
        ),
        (
            #"{"groups": {"a": {"assets": [{"path": "h.png", "options": {"atlas": {"padding": -1}}}]}}}"#,
            "m.json: group 'a': entry 1 ('h.png'): 'options': 'atlas': 'padding' must be a whole number from 0 to 4096"
        ),
        (
            #"{"groups": {"a": {"assets": [{"path": "a.png", "name": "hero"}]}, "b": {"assets": [{"path": "b.png", "name": "hero"}]}}}"#,
            "m.json: group 'b': entry 1 ('b.png'): the name 'hero' is given to two files (group 'a' entry 1 ('a.png') is DIR/a.png)"
        ),
        (#"[1, 2]"#, "m.json: the top level is not a JSON object"),
        (#"{"groups": {"a": {"assets": [}}"#, "m.json: is not valid JSON"),
    ])
    func mistakesAreNamedByManifestGroupAndEntry(_ text: String, _ expected: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("m.json", text: text)
        let error = try #require(throws: ManifestError.self) { try AssetManifest(contentsOf: path, registry: try TestPlugins.registry()) }
        #expect(error.description == expected.replacingOccurrences(of: "m.json", with: path).replacingOccurrences(of: "DIR", with: directory.path))
    }

    @Test func unknownGroupsAndCyclesAreRefusedBeforeAnythingLoads() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "m.json",
            text:
                #"{"groups": {"a": {"requires": ["b"], "assets": []}, "b": {"requires": ["c"], "assets": []}, "c": {"requires": ["a"], "assets": []}, "d": {"requires": ["nope"], "assets": []}}}"#
        )
        let manifest = try AssetManifest(contentsOf: path, registry: try TestPlugins.registry())
        let cycle = try #require(throws: ManifestError.self) { try manifest.resolve(["a"]) }
        #expect(cycle.description == "\(path): group 'a': the groups require each other: a -> b -> c -> a")
        let unknown = try #require(throws: ManifestError.self) { try manifest.resolve(["level9"]) }
        #expect(unknown.description == "\(path): no group named 'level9'")
        let missing = try #require(throws: ManifestError.self) { try manifest.resolve(["d"]) }
        #expect(missing.description == "\(path): group 'd': requires 'nope', which is not a group")
    }
}
