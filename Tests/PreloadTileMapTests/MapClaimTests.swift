import Foundation
import Preload
import PreloadPNG
import PreloadTestSupport
import PreloadTileMap
import Testing

/// A Tiled JSON map is claimed by its top-level keys wherever they fall (Tiled sorts them, so
/// `orientation` follows the whole `layers` array); its JSON tilesets are not maps; an image
/// only an unplaced tile has may be missing.
@Suite struct MapClaimTests {
    static let image = PNGFixture.rgba(width: 32, height: 32, pixels: PNGFixture.noise(width: 32, height: 32, seed: 5))

    /// A map as Tiled exports it, keys sorted: a 400x100 layer (80 KB of tile IDs) before
    /// `orientation`, and two external JSON tilesets.
    static func sortedMap() throws -> [UInt8] {
        let layer: [String: Any] = [
            "data": [Int](repeating: 1, count: 400 * 100), "height": 100, "id": 1, "name": "floor", "opacity": 1, "type": "tilelayer",
            "visible": true, "width": 400, "x": 0, "y": 0,
        ]
        let map: [String: Any] = [
            "compressionlevel": -1, "height": 100, "infinite": false, "layers": [layer], "nextlayerid": 2, "nextobjectid": 1,
            "orientation": "orthogonal", "renderorder": "right-down", "tiledversion": "1.10.2", "tileheight": 16,
            "tilesets": [["firstgid": 1, "source": "ground.tsj"], ["firstgid": 5, "source": "props.json"]], "tilewidth": 16,
            "type": "map", "version": "1.10", "width": 400,
        ]
        return Array(try JSONSerialization.data(withJSONObject: map, options: [.sortedKeys]))
    }

    static func tileset(_ name: String) throws -> [UInt8] {
        let tileset: [String: Any] = [
            "columns": 2, "image": "t.png", "imageheight": 32, "imagewidth": 32, "margin": 0, "name": name, "spacing": 0, "tilecount": 4,
            "tiledversion": "1.10.2", "tileheight": 16, "tilewidth": 16, "type": "tileset", "version": "1.10",
        ]
        return Array(try JSONSerialization.data(withJSONObject: tileset, options: [.sortedKeys]))
    }

    @Test func aSortedJSONMapIsClaimedAndItsJSONTilesetsAreNot() async throws {
        let directory = try TemporaryDirectory("tilemap-sorted")
        try directory.write("level/t.png", Self.image)
        let map = try Self.sortedMap()
        #expect(map.firstRange(of: Array(#""orientation""#.utf8))!.lowerBound > 64 << 10)
        let level = try directory.write("level/level.json", map)
        let ground = try directory.write("level/ground.tsj", try Self.tileset("ground"))
        let props = try directory.write("level/props.json", try Self.tileset("props"))
        #expect(TileMapLoader().signatureMatch(Array(map.prefix(512))) == .undecided)
        #expect(TileMapLoader().signatureMatch(map) == .matches)
        #expect(TileMapLoader().signatureMatch(try Self.tileset("ground")) == .differs)

        let registry = try PluginRegistry([PNGLoader(), TileMapLoader()])
        #expect(registry.claimant(of: level)?.identifier == "tilemap")
        #expect(registry.claimant(of: ground) == nil && registry.claimant(of: props) == nil)

        // Named, the map loads; walked, it loads and its tilesets are skipped as part of it.
        let named = try await TileMapFixtures.map(level)
        #expect(named.tilesets.map(\.name) == ["ground", "props"] && named.layers.first?.tiles?.grid.width == 400)
        let coordinator = PreloadCoordinator(registry: registry)
        let report = try await coordinator.preload([.folder(directory.file("level"))])
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.skippedPaths.sorted() == [ground, props])
        #expect(coordinator.assets.asset(atPath: level) is TileMap)
    }

    /// Other JSON is told from its first key, however long it is; JSON with a map's key names
    /// but not Tiled's own keys is read to its end, and is not a map either.
    @Test func otherJSONIsLeftAloneWithoutReadingOn() throws {
        let frames = Array((#"{"frames": ["# + String(repeating: #"{"x": 1, "layers": 2, "orientation": 3}, "#, count: 4000) + "{}]}").utf8)
        #expect(TileMapLoader().signatureMatch(Array(frames.prefix(512))) == .differs)
        let layersOnly = Array((#"{"height": 1, "layers": ["# + String(repeating: "1, ", count: 40000) + #"1], "width": 1}"#).utf8)
        #expect(TileMapLoader().signatureMatch(Array(layersOnly.prefix(512))) == .undecided)
        #expect(TileMapLoader().signatureMatch(layersOnly) == .differs)
        #expect(TileMapLoader().signatureMatch(Array(#"{"type": "tileset", "layers": [], "orientation": "orthogonal"}"#.utf8)) == .differs)
        // melonJS's own export: `type` first, an `editor` key of its own, `layers` last.
        let melon = #"{"type": "map", "height": 1, "orientation": "orthogonal", "editor": "melon-editor", "tilesets": [], "layers": []}"#
        #expect(TileMapLoader().signatureMatch(Array(melon.utf8)) == .matches)
        // Another tool's "map" without Tiled's keys is not Tiled's.
        #expect(TileMapLoader().signatureMatch(Array(#"{"type": "map", "layers": [], "cells": []}"#.utf8)) == .differs)
    }

    static func imageCollection(placing tiles: String) -> String {
        """
        <map orientation="orthogonal" width="2" height="1" tilewidth="16" tileheight="16">
         <tileset firstgid="1" name="things" tilewidth="32" tileheight="32" tilecount="3" columns="0">
          <tile id="0"><image width="32" height="32" source="t.png"/></tile>
          <tile id="1"><image width="32" height="32" source="crate_typo.png"/></tile>
          <tile id="2"><image width="32" height="32" source="t.png"/><animation><frame tileid="1" duration="100"/></animation></tile>
         </tileset>
         <layer id="1" name="floor" width="2" height="1"><data encoding="csv">\(tiles)</data></layer>
        </map>
        """
    }

    /// arcade's `pymunk_test_map.json` names a tile image that does not exist, for a tile no
    /// layer places: the map loads, saying so; a placed tile (or a placed tile's animation)
    /// that needs the image fails the map by the image's cause.
    @Test func aMissingImageOnlyAnUnplacedTileHasIsAWarning() async throws {
        let directory = try TemporaryDirectory("tilemap-unplaced")
        try directory.write("t.png", Self.image)
        let unplaced = try directory.write("unplaced.tmx", text: Self.imageCollection(placing: "1,0"))
        let placed = try directory.write("placed.tmx", text: Self.imageCollection(placing: "1,2"))
        let animated = try directory.write("animated.tmx", text: Self.imageCollection(placing: "3,0"))
        let (report, coordinator) = try await TileMapFixtures.load([unplaced, placed, animated])
        let loaded = try #require(report.results.first { $0.request.path == unplaced })
        #expect(loaded.outcome.isLoaded, "\(report.errors)")
        #expect(loaded.warnings.map(\.code) == [.tilemapUnplacedTileImage])
        #expect(loaded.warnings.first?.message.hasPrefix("tileset 'things', tile 1: its image crate_typo.png did not load (") == true)
        let map = try #require(coordinator.assets.asset(atPath: unplaced) as? TileMap)
        #expect(map.tilesets[0].tiles.map { $0.image != nil } == [true, false, true])
        for path in [placed, animated] {
            let error = report.errors.first { $0.path == path }
            #expect(error?.category == .dependencyFailed, "\(path): \(String(describing: error))")
            #expect(error?.reason.hasPrefix("needs \(directory.file("crate_typo.png")), which failed") == true, "\(String(describing: error))")
        }
    }
}
