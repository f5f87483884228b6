import Foundation
import Preload
import PreloadTestSupport
import PreloadTileMap
import Testing

/// Each TMX fixture and Tiled's own JSON export of it load as equal maps, and what they load is
/// what `make_fixtures.py` wrote: the plugin reads both formats as Tiled wrote them, layer by
/// layer, tile by tile, property by property.
@Suite struct TiledExportTests {
    @Test(arguments: TileMapFixtures.maps)
    func aTMXAndItsTiledExportLoadAsEqualMaps(_ name: String) async throws {
        let tmx = try await TileMapFixtures.map(TileMapFixtures.path(name + ".tmx"))
        let tmj = try await TileMapFixtures.map(TileMapFixtures.path(name + ".tmj"))
        #expect(tmx == tmj)
        #expect(tmx.tilesets.map(\.name) == ["tiles", "terrain", "people"])
        #expect(tmx.allLayers.contains { !($0.tiles?.placedTiles.isEmpty ?? true) })
    }

    /// The tiles `make_fixtures.py`'s `grid` placed: every tile of every tileset, flipped eight ways.
    static func grid(width: Int, height: Int, seed: Int) -> [TileGID] {
        let gids: [UInt32] = Array(1...22) + [24, 1]
        let flips: [TileFlips] = [
            [], .horizontal, .vertical, .diagonal, [.horizontal, .vertical], [.horizontal, .diagonal], [.vertical, .diagonal],
            [.horizontal, .vertical, .diagonal],
        ]
        return (0..<width * height).map { index in
            let value = (index * 7 + seed) % 26
            return value >= 24 ? .empty : TileGID(id: gids[value], flips: flips[(index + seed) % 8])
        }
    }

    /// CSV, `<tile>` elements, base64 plain, zlib, gzip and zstd, from TMX and from JSON: the same
    /// two layers of tiles, as the script wrote them.
    @Test(arguments: ["csv", "xml", "base64", "zlib", "gzip", "zstd"], ["tmx", "tmj"])
    func everyEncodingGivesTheTilesWritten(_ encoding: String, _ format: String) async throws {
        let map = try await TileMapFixtures.map(TileMapFixtures.path("encoding-\(encoding).\(format)"))
        #expect(map.layers.map(\.name) == ["ground", "details"])
        for (seed, layer) in zip([1, 2], map.layers) {
            let tiles = try #require(layer.tiles)
            #expect(tiles.grid.width == 7 && tiles.grid.height == 5 && tiles.chunks.isEmpty)
            #expect(tiles.grid.tiles == Self.grid(width: 7, height: 5, seed: seed), "\(layer.name)")
        }
        #expect(map.layers[0].tiles?.tile(column: 0, row: 0) == TileGID(id: 2, flips: .horizontal))
        #expect(map.layers[0].tiles?.tile(column: 3, row: 0) == TileGID(id: 24, flips: [.horizontal, .vertical]))
    }

    @Test(arguments: ["infinite-csv", "infinite-zlib"], ["tmx", "tmj"])
    func infiniteMapsKeepTheirChunksInTiledsOrder(_ name: String, _ format: String) async throws {
        let map = try await TileMapFixtures.map(TileMapFixtures.path("\(name).\(format)"))
        #expect(map.isInfinite)
        let tiles = try #require(map.layers.first?.tiles)
        #expect(tiles.grid.tiles.isEmpty)
        #expect(tiles.chunks.map { [$0.x, $0.y, $0.tiles.width, $0.tiles.height] } == [[16, -16, 16, 16], [-16, 0, 16, 16], [0, 0, 16, 16]])
        #expect(tiles.chunks.map(\.tiles.tiles) == [3, 1, 2].map { Self.grid(width: 16, height: 16, seed: $0) })
        #expect(tiles.tile(column: -16, row: 0) == Self.grid(width: 16, height: 16, seed: 1)[0])
        #expect(tiles.tile(column: 17, row: -15) == Self.grid(width: 16, height: 16, seed: 3)[17])
        #expect(tiles.tile(column: 40, row: 40) == .empty)
    }

    @Test func anExternalTilesetReadsAlikeFromTSXAndFromTiledsTSJExport() async throws {
        let viaTSX = try await TileMapFixtures.map(TileMapFixtures.path("encoding-csv.tmj"))
        var viaTSJ = try await TileMapFixtures.map(TileMapFixtures.path("external-tsj.tmj"))
        #expect(viaTSJ.tilesets[1].source == TileMapFixtures.path("terrain.tsj"))
        viaTSJ.tilesets[1].source = viaTSX.tilesets[1].source
        #expect(viaTSJ == viaTSX)
    }

    @Test func propertiesKeepTheirTypes() async throws {
        let map = try await TileMapFixtures.map(TileMapFixtures.path("features.tmx"))
        #expect(
            map.properties == [
                "alive": .bool(true), "count": .int(-42), "gravity": .float(9.75), "whole": .float(2), "label": .string("Level 1"),
                "poem": .string("two\nlines"), "tint": .color(TiledColor(red: 0xFF, green: 0x20, blue: 0, alpha: 0x80)),
                "music": .file("audio/theme.ogg"), "boss": .object(7),
            ])
        #expect(map.tilesets[0].tile(id: 2)?.properties == ["locked": .bool(true), "key": .object(3)])
        #expect(map.tilesets[1].properties == ["biome": .string("grass")])
        #expect(map.tilesets[1].tile(id: 5)?.properties == ["speed": .float(0.25)])
        #expect(map.layer(named: "ground")?.properties == ["solid": .bool(false)])
        #expect(map.layer(named: "sky")?.properties["scroll"]?.number == 0.125)
    }

    /// A class property, as Tiled 1.9 and later write it (Tiled 1.8 cannot export one without
    /// its project file): the TMX types its members, the JSON does not, and members whose value
    /// says their type read alike.
    @Test func classPropertiesReadAlikeWhereTheJSONValueSaysTheType() throws {
        let directory = try TemporaryDirectory("tilemap-class")
        try directory.write("tiles.png", PNGFixture.rgba(width: 16, height: 16, pixels: PNGFixture.noise(width: 16, height: 16)))
        let tmx = try directory.write(
            "class.tmx",
            text: """
                <map version="1.10" orientation="orthogonal" width="1" height="1" tilewidth="16" tileheight="16">
                 <properties>
                  <property name="spawn" type="class" propertytype="Spawn">
                   <properties>
                    <property name="count" type="int" value="3"/>
                    <property name="rate" type="float" value="0.5"/>
                    <property name="boss" type="bool" value="true"/>
                    <property name="kind" value="slime"/>
                    <property name="area" type="class" propertytype="Rect">
                     <properties><property name="w" type="int" value="8"/></properties>
                    </property>
                   </properties>
                  </property>
                 </properties>
                 <layer id="1" name="l" width="1" height="1"><data encoding="csv">0</data></layer>
                </map>
                """)
        let tmj = try directory.write(
            "class.tmj",
            text: """
                {"type": "map", "version": "1.10", "orientation": "orthogonal", "width": 1, "height": 1, "tilewidth": 16, "tileheight": 16,
                 "properties": [{"name": "spawn", "type": "class", "propertytype": "Spawn",
                                 "value": {"count": 3, "rate": 0.5, "boss": true, "kind": "slime", "area": {"w": 8}}}],
                 "layers": [{"type": "tilelayer", "id": 1, "name": "l", "width": 1, "height": 1, "data": [0]}], "tilesets": []}
                """)
        let fromTMX = try TileMapLoader.describe(path: tmx), fromTMJ = try TileMapLoader.describe(path: tmj)
        let members: TiledProperties = ["count": .int(3), "rate": .float(0.5), "boss": .bool(true), "kind": .string("slime")]
        #expect(
            fromTMX.properties["spawn"]
                == .class(type: "Spawn", members: members.merging(["area": .class(type: "Rect", members: ["w": .int(8)])]) { $1 }))
        #expect(
            fromTMJ.properties["spawn"] == .class(type: "Spawn", members: members.merging(["area": .class(type: "", members: ["w": .int(8)])]) { $1 })
        )
    }

    @Test func layersFormATreeWithTheirAttributes() async throws {
        let map = try await TileMapFixtures.map(TileMapFixtures.path("features.tmx"))
        #expect(map.layers.map(\.name) == ["ground", "world", "top"])
        #expect(map.allLayers.map(\.name) == ["ground", "world", "things", "backdrop", "sky", "clouds", "top"])
        #expect(map.allLayers.map(\.id) == [1, 2, 3, 4, 5, 6, 7])
        let ground = try #require(map.layer(named: "ground"))
        #expect(!ground.isVisible && ground.opacity == 0.5 && ground.offset == SIMD2(3, -2) && ground.parallax == SIMD2(0.5, 2))
        #expect(ground.tintColor == TiledColor(red: 0, green: 0xFF, blue: 0x80))
        let world = try #require(map.layer(named: "world"))
        #expect(world.offset == SIMD2(10, 20) && world.opacity == 0.75 && world.tintColor == TiledColor(red: 0x33, green: 0x66, blue: 0x99))
        #expect(world.properties == ["zone": .int(4)] && world.sublayers.map(\.name) == ["things", "backdrop"])
        #expect(map.layer(named: "backdrop")?.parallax == SIMD2(0.25, 0.5))
        guard case .image(let sky) = map.layer(named: "sky")?.content, case .image(let clouds) = map.layer(named: "clouds")?.content else {
            Issue.record("sky and clouds are image layers")
            return
        }
        #expect(sky.repeatsX && !sky.repeatsY && !clouds.repeatsX && clouds.repeatsY)
        #expect(sky.image?.path == TileMapFixtures.path("sky.png") && sky.image?.texture?.width == 24 && sky.image?.height == 12)
        #expect(map.layer(named: "sky")?.offset == SIMD2(-4, 6) && map.layer(named: "sky")?.opacity == 0.9)
        #expect(map.backgroundColor == TiledColor(red: 0x20, green: 0x30, blue: 0x40) && map.nextLayerID == 9 && map.nextObjectID == 20)
        #expect(map.version == "1.8" && map.tiledVersion == "1.8.2" && map.orientation == .orthogonal && map.renderOrder == .rightDown)
    }

    @Test func objectsOfEveryShape() async throws {
        let map = try await TileMapFixtures.map(TileMapFixtures.path("features.tmj"))
        let group = try #require(map.layer(named: "things")?.objects)
        #expect(group.drawOrder == .index && group.color == TiledColor(red: 0xA0, green: 0xA0, blue: 0xA4))
        let objects = Dictionary(uniqueKeysWithValues: group.objects.map { ($0.id, $0) })
        let box = try #require(objects[1])
        #expect(box.name == "box" && box.className == "Crate" && box.x == 16 && box.y == 24.5 && box.width == 32 && box.height == 16)
        #expect(box.rotation == 45 && box.shape == .rectangle && box.gid == nil && box.properties == ["weight": .float(1.5), "target": .object(4)])
        #expect(objects[2]?.shape == .ellipse && objects[2]?.width == 20 && objects[3]?.shape == .point)
        #expect(objects[4]?.shape == .polygon([SIMD2(0, 0), SIMD2(16, 0), SIMD2(16, -8.5), SIMD2(0, -8)]))
        #expect(objects[5]?.shape == .polyline([SIMD2(0, 0), SIMD2(10, 5), SIMD2(20, -5)]) && objects[5]?.isVisible == false)
        let text = MapText(
            text: "Hello, map!", fontFamily: "Serif", pixelSize: 12, wraps: true, color: TiledColor(red: 0xFF, green: 0, blue: 0), isBold: true,
            isItalic: true, isUnderlined: true, isStruckOut: true, usesKerning: false, horizontalAlignment: .center, verticalAlignment: .bottom)
        #expect(objects[6]?.shape == .text(text))
        #expect(objects[7]?.gid == TileGID(id: 21, flips: .horizontal) && objects[8]?.gid == TileGID(id: 3, flips: [.vertical, .diagonal]))
        #expect(objects[9]?.template == TileMapFixtures.path("enemy.tx") && objects[9]?.name == "" && objects[9]?.x == 70)
        #expect(objects[10]?.shape == .rectangle && objects[10]?.width == 3)
        #expect(map.tilesets[0].tile(id: 7)?.collision?.objects.first.map { [$0.x, $0.y, $0.width, $0.height] } == [2, 3, 12, 10])
    }

    @Test(arguments: ["isometric", "staggered", "hexagonal"])
    func otherOrientationsKeepTheirGeometry(_ name: String) async throws {
        let map = try await TileMapFixtures.map(TileMapFixtures.path(name + ".tmj"))
        switch name {
        case "isometric": #expect(map.orientation == .isometric && map.tileWidth == 32 && map.tileHeight == 16)
        case "staggered": #expect(map.orientation == .staggered && map.staggerAxis == .y && map.staggerIndex == .even && map.renderOrder == .leftUp)
        default:
            #expect(map.orientation == .hexagonal && map.hexSideLength == 8 && map.staggerAxis == .x && map.staggerIndex == .odd)
            #expect(map.layers[0].tiles?.grid.tiles[1] == TileGID(id: 2, flips: .hexagonalRotation))
            #expect(map.layers[0].tiles?.grid.tiles[2].flips == [.hexagonalRotation, .horizontal])
        }
    }
}

/// A TMJ's long arrays of tile IDs are read as text before Foundation parses the rest
/// (`JSONTileArrays`): only arrays of plain unsigned integers outside strings, with the same
/// numbers and the same strictness as any other array.
@Suite struct JSONTileArrayTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory("tilemap-json-arrays") }

    /// A 20x20 map whose one layer's data is `data` (JSON text), with a property `note`.
    func map(data: String, note: String = "") throws -> TileMap {
        let path = try directory.write(
            "map.tmj",
            text: """
                {"type": "map", "orientation": "orthogonal", "width": 20, "height": 20, "tilewidth": 16, "tileheight": 16, "tilesets": [],
                 "properties": [{"name": "note", "type": "string", "value": "\(note)"}],
                 "layers": [{"type": "tilelayer", "name": "ground", "width": 20, "height": 20, "data": \(data)}]}
                """)
        return try TileMapLoader.describe(path: path)
    }

    func failure(data: String) -> String? {
        guard case .damagedLayerData(_, "ground", let detail)? = thrownError(TileMapError.self, by: { _ = try map(data: data) }) else { return nil }
        return detail
    }

    @Test func longArraysGiveTheirNumbers() throws {
        let numbers: [UInt32] = (0..<400).map { (index: UInt32) -> UInt32 in
            let id: UInt32 = index % 7 == 0 ? 0 : index
            return index % 5 == 0 ? id | 0x8000_0000 : id
        }
        let text = "[" + numbers.map(String.init).joined(separator: ",\n ") + "]"
        #expect(try map(data: text).layers[0].tiles?.grid.tiles.map(\.rawValue) == numbers)
        // The same array in a string is text, and stays text.
        let quoted = String(repeating: "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]", count: 4)
        #expect(try map(data: text, note: quoted).properties["note"] == .string(quoted))
        #expect(try map(data: text, note: #"\""# + quoted).properties["note"] == .string("\"" + quoted), "an escaped quote does not end a string")
    }

    @Test func longArraysAreAsStrictAsShortOnes() {
        let ones = Array(repeating: "1", count: 399)
        #expect(failure(data: "[" + ones.joined(separator: ",") + "]") == "the data has 399 tiles, the layer 400")
        #expect(failure(data: "[" + (ones + ["4294967296"]).joined(separator: ",") + "]") == "value 400 of the data is beyond 32 bits")
        // Arrays this scan does not take are Foundation's: a negative number, a leading zero, a fraction.
        for odd in ["-1", "1.5"] {
            #expect(failure(data: "[" + (ones + [odd]).joined(separator: ",") + "]") == "'\(odd)' in the data is not a global tile ID")
        }
        let leadingZero = thrownError(TileMapError.self) { _ = try map(data: "[" + (ones + ["01"]).joined(separator: ",") + "]") }
        #expect(leadingZero.map { if case .malformed(_, let detail) = $0 { detail.hasPrefix("not valid JSON") } else { false } } == true)
        #expect(failure(data: #""\u0001tiles-0-0""#) == "value 1 of the CSV has '\u{1}', which is not a digit")
    }
}
