import Foundation
import Preload
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import PreloadTileMap
import Testing

/// Maps in the pipeline: images as dependencies (shared ones decoded once), maps inside a zip
/// with their tilesets and images, Tiled JSON claimed by content, CSV grids, warnings.
@Suite struct TileMapLoadingTests {
    static let image = PNGFixture.rgba(width: 32, height: 32, pixels: PNGFixture.noise(width: 32, height: 32, seed: 3))

    /// Tiled writes UTF-8; a TMX another tool saved in Latin-1, and says so, reads as its text.
    @Test func aMapInADeclaredEncodingReadsAsItsText() async throws {
        let directory = try TemporaryDirectory("latin-map")
        let path = try directory.write(
            "declared.tmx",
            Array(#"<?xml version="1.0" encoding="ISO-8859-1"?>"#.utf8)
                + Array(#"<map orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8">"#.utf8)
                + Array(#"<properties><property name="title" value="Caf"#.utf8) + [0xE9] + Array(#""/></properties></map>"#.utf8))
        let map = try await TileMapFixtures.map(path)
        #expect(map.properties["title"] == .string("Café"))
    }

    @Test func aTilesetImageTwoMapsShareDecodesOnce() async throws {
        let first = TileMapFixtures.path("encoding-csv.tmx"), second = TileMapFixtures.path("encoding-zlib.tmj")
        let (report, coordinator) = try await TileMapFixtures.load([first, second])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(report.results.map(\.plugin) == ["tilemap", "tilemap"])
        let images = report.dependencies.filter { $0.request.path.hasSuffix("tiles.png") }
        #expect(Set(images.compactMap(\.assetIndex)).count == 1 && Set(report.dependencies.compactMap(\.assetIndex)).count == 5)
        let one = try #require(coordinator.assets.asset(atPath: first) as? TileMap)
        let two = try #require(coordinator.assets.asset(atPath: second) as? TileMap)
        let (a, b) = (try #require(one.tilesets[0].image?.texture), try #require(two.tilesets[0].image?.texture))
        a.pixels.withUnsafeBufferPointer { a in b.pixels.withUnsafeBufferPointer { b in #expect(a.baseAddress == b.baseAddress) } }
        let layers = [one, two].map { map in map.byteCount - map.heldTextures.reduce(0) { $0 + $1.byteCount } }
        #expect(layers.allSatisfy { $0 > 0 }, "\(layers)")
        #expect(
            report.decodedBytes == one.heldTextures.reduce(0) { $0 + $1.byteCount } + layers[0] + layers[1],
            "each image counted once, each map's tile layers as its own")
    }

    /// A zip holding a map, its external tileset in another folder and their images.
    static func archive(
        map: String, tileset: String = #"<tileset name="t" tilewidth="16" tileheight="16"><image source="t.png"/></tileset>"#
    ) -> [UInt8] {
        ZipFixture.stored([("maps/level.tmx", Array(map.utf8)), ("sets/t.tsx", Array(tileset.utf8)), ("sets/t.png", image), ("sky.png", image)])
    }

    static func map(tilesets: String, layers: String = "") -> String {
        """
        <map orientation="orthogonal" width="2" height="1" tilewidth="16" tileheight="16">\(tilesets)
         <layer id="1" name="floor" width="2" height="1"><data encoding="csv">4,1</data></layer>\(layers)
        </map>
        """
    }

    @Test func aMapInsideAZipLoadsWithItsTilesetsAndImages() async throws {
        let directory = try TemporaryDirectory("tilemap-zip")
        let zip = try directory.write(
            "level.zip",
            Self.archive(
                map: Self.map(
                    tilesets: #"<tileset firstgid="1" source="../sets/t.tsx"/>"#,
                    layers: #"<imagelayer id="2" name="sky"><image source="../sky.png"/></imagelayer>"#)))
        let path = zip + "#maps/level.tmx"
        let (report, coordinator) = try await TileMapFixtures.load([path], plugins: [PackLoader()])
        #expect(report.everythingLoaded, "\(report.errors)")
        let map = try #require(coordinator.assets.asset(atPath: path) as? TileMap)
        #expect(map.tilesets[0].source == zip + "#sets/t.tsx" && map.tilesets[0].image?.path == zip + "#sets/t.png")
        #expect(map.tilesets[0].columns == 2 && map.tilesets[0].tileCount == 4, "counted from the image the tileset does not size")
        #expect(map.tile(for: TileGID(id: 4))?.rect == TileRect(x: 16, y: 16, width: 16, height: 16))
        #expect(map.images.map(\.path) == [zip + "#sets/t.png", zip + "#sky.png"] && map.heldTextures.count == 2)
    }

    @Test func namesReachingOutOfTheArchiveFail() async throws {
        let directory = try TemporaryDirectory("tilemap-zip-escape")
        try directory.write("t.tsx", text: #"<tileset name="t" tilewidth="16" tileheight="16"><image source="t.png"/></tileset>"#)
        try directory.write("t.png", Self.image)
        let tileset = try directory.write("tileset.zip", Self.archive(map: Self.map(tilesets: #"<tileset firstgid="1" source="../../t.tsx"/>"#)))
        let (report, _) = try await TileMapFixtures.load([tileset + "#maps/level.tmx"], plugins: [PackLoader()])
        #expect(
            report.errors.first?.underlying as? TileMapError
                == .missingTileset(file: tileset + "#maps/level.tmx", tileset: "../../t.tsx", cause: "it lies outside the archive \(tileset)"))
        let image = try directory.write(
            "image.zip",
            Self.archive(
                map: Self.map(tilesets: #"<tileset firstgid="1" name="t" tilewidth="16" tileheight="16"><image source="/t.png"/></tileset>"#)))
        let (imageReport, _) = try await TileMapFixtures.load([image + "#maps/level.tmx"], plugins: [PackLoader()])
        #expect(
            imageReport.errors.first?.underlying as? TileMapError
                == .malformed(file: image + "#maps/level.tmx", detail: "tileset 't': the image '/t.png' lies outside the archive \(image)"))
    }

    @Test func tiledJSONIsClaimedByContentAndOtherJSONIsLeftAlone() async throws {
        for name in TileMapFixtures.maps {
            // Tiled sorts a JSON map's keys: `orientation` follows the layers, past any header.
            let json = Array(try Data(contentsOf: URL(fileURLWithPath: TileMapFixtures.path(name + ".tmj"))))
            #expect(TileMapLoader().signatureMatch(json) == .matches, "\(name).tmj")
            let xml = Array(try Data(contentsOf: URL(fileURLWithPath: TileMapFixtures.path(name + ".tmx"))).prefix(512))
            #expect(TileMapLoader().matchesSignature(xml), "\(name).tmx")
        }
        for other in [#"{"frames": {}, "meta": {}}"#, #"{"layers": [1, 2]}"#, #"{"levels": [{"layers": 3}]}"#, "[1, 2]", "<tileset/>", "plain"] {
            #expect(!TileMapLoader().matchesSignature(Array(other.utf8)), "\(other)")
        }
        let directory = try TemporaryDirectory("tilemap-json")
        let level = try directory.write(
            "level.json",
            text:
                #"{ "compressionlevel":-1, "height":1, "infinite":false, "layers":[{ "data":[0, 0], "height":1, "id":1, "name":"floor", "type":"tilelayer", "width":2 }], "orientation":"orthogonal", "tileheight":16, "tilesets":[], "tilewidth":16, "type":"map", "width":2 }"#
        )
        let data = try directory.write("data.json", text: #"{"levels": [{"layers": 3}]}"#)
        let (report, coordinator) = try await TileMapFixtures.load([level, data])
        #expect(report.results.map(\.plugin) == ["tilemap", nil])
        #expect((coordinator.assets.asset(atPath: level) as? TileMap)?.layers.first?.tiles?.grid.width == 2)
        #expect(report.errors.map(\.category) == [.noLoader])
    }

    @Test func aCSVGridLoadsAsAOneLayerMap() async throws {
        let directory = try TemporaryDirectory("tilemap-csv")
        let indexes = try directory.write("level.csv", text: "0, 1,-1\r\n2,3,4\n\n")
        let gids = try directory.write("gids.csv", text: "0,2147483649\n3,0\n")
        let ragged = try directory.write("ragged.csv", text: "1,2,3\n4,5\n")
        let coordinator = try PreloadCoordinator(plugins: [TileMapLoader()])
        func request(_ path: String, _ options: TileMapLoaderSettings) -> AssetRequest {
            AssetRequest(path: path, plugin: "tilemap", options: AssetOptions().with(TileMapLoaderSettings.self, options))
        }
        let report = try await coordinator.preload([
            request(indexes, TileMapLoaderSettings(tileWidth: 16, tileHeight: 8)),
            request(gids, TileMapLoaderSettings(tileWidth: 16, numbering: .globalIDs)),
            request(ragged, TileMapLoaderSettings(tileWidth: 16)),
        ])
        let level = try #require(coordinator.assets.asset(atPath: indexes) as? TileMap)
        #expect(level.width == 3 && level.height == 2 && level.tileWidth == 16 && level.tileHeight == 8 && level.tilesets.isEmpty)
        #expect(level.layers.map(\.name) == ["level"] && level.layers[0].tiles?.grid.tiles.map(\.rawValue) == [1, 2, 0, 3, 4, 5])
        let ids = try #require(coordinator.assets.asset(atPath: gids) as? TileMap)
        #expect(ids.layers[0].tiles?.grid.tiles == [.empty, TileGID(id: 1, flips: .horizontal), TileGID(id: 3), .empty])
        #expect(
            report.errors.map { $0.underlying as? TileMapError } == [
                .damagedLayerData(file: ragged, layer: "ragged", detail: "row 2 has 2 values, the first row 3")
            ])
        #expect(throws: TileMapError.damagedLayerData(file: "x.csv", layer: "x", detail: "the value '-2' at (1, 0) is not a tile index (-1 or more)"))
        {
            try TileMapLoaderSettings(tileWidth: 8).map(csv: Array("1,-2".utf8), layerName: "x", file: "x.csv")
        }
    }

    @Test func whatTiledForgivesLoadsWithWarnings() async throws {
        let (report, _) = try await TileMapFixtures.load([TileMapFixtures.path("features.tmx")])
        #expect(report.everythingLoaded)
        #expect(
            report.results[0].warnings.map(\.message) == [
                "layer 'things', object 9 is an instance of the template enemy.tx, which is not read: the object has only what the map states"
            ])
        #expect(report.results[0].warnings.map(\.code) == [.tilemapTemplateUnsupported])
        let directory = try TemporaryDirectory("tilemap-warnings")
        try directory.write("t.png", Self.image)
        let path = try directory.write(
            "map.tmx",
            text: Self.map(
                tilesets:
                    #"<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" columns="3"><image source="t.png" width="48" height="32"/></tileset>"#,
                layers: #"<layer id="2" name="tinted" width="2" height="1" tintcolor="blue-ish"><data encoding="csv">0,0</data></layer>"#))
        let (forgiven, coordinator) = try await TileMapFixtures.load([path])
        #expect(forgiven.everythingLoaded, "\(forgiven.errors)")
        #expect(forgiven.results[0].warnings.map(\.code) == [.tilemapInvalidColor, .tilemapImageSizeMismatch, .tilemapColumnsMismatch])
        let map = try #require(coordinator.assets.asset(atPath: path) as? TileMap)
        #expect(map.tilesets[0].columns == 2 && map.tilesets[0].image?.width == 32 && map.layer(named: "tinted")?.tintColor == nil)
        let strict = try PreloadCoordinator(plugins: [TileMapLoader(), PNGLoader()])
        let strictReport = try await strict.start([AssetRequest(path: path)], options: PreloadOptions(isStrict: true)).finished()
        #expect(strictReport.errors.map(\.category) == [.strict])
    }
}
