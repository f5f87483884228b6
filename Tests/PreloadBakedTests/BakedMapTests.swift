import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadPNG
import PreloadTestSupport
import PreloadTileMap
import Testing

/// Tiled maps bake as their tables, their images as texture entries, and load from the pack as
/// the loose maps did: equal tables, the same pixels, images as views of the mapping, every
/// placed tile checked again.
@Suite struct BakedMapTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PreloadTileMapTests/Fixtures")

    @Test func everyFixtureMapLoadsFromThePackAsItDidLoose() async throws {
        let names = ["features.tmx", "encoding-zstd.tmx", "infinite-zlib.tmj", "hexagonal.tmx", "isometric.tmj", "staggered.tmx"]
        let requests = names.map { AssetRequest(path: Self.fixtures.appendingPathComponent($0).path, name: $0) }
        let loose = try PreloadCoordinator(plugins: [PNGLoader(), TileMapLoader()])
        let report = try await loose.preload(requests)
        #expect(report.everythingLoaded, "\(report.errors)")
        let directory = try TemporaryDirectory("baked-maps")
        let pack = directory.file("maps.bake")
        let summary = try BakeWriter.write(report, to: pack)
        #expect(summary.count(ofKind: "tilemap") == names.count, "\(summary)")

        let baked = try PreloadCoordinator(plugins: [TileMapLoader(), BakedPackLoader()])
        let loaded = try await baked.preload([AssetRequest(path: pack)])
        #expect(loaded.everythingLoaded, "\(loaded.errors)")
        for name in names {
            let original = try #require(loose.assets.asset(named: name, as: TileMap.self))
            let map = try #require(baked.assets.asset(named: name, as: TileMap.self), "\(name)")
            #expect(map == original, "\(name): the tables")
            #expect(map.images.map(\.texture?.pixels) == original.images.map(\.texture?.pixels), "\(name): the images' pixels")
            #expect(map.images.allSatisfy { $0.texture?.pixels.isMapped == true }, "\(name): images are views into the pack")
            for layer in map.allLayers {
                guard let tiles = layer.tiles else { continue }
                for placed in tiles.placedTiles.prefix(50) {
                    #expect(map.tile(for: placed.tile)?.rect == original.tile(for: placed.tile)?.rect, "\(name): \(layer.name)")
                }
            }
        }
    }

    @Test func aTileMovedOutOfItsTilesetInThePackFailsByName() async throws {
        let directory = try TemporaryDirectory("baked-map-damage")
        let map = try directory.write(
            "small.tmx",
            text: """
                <?xml version="1.0" encoding="UTF-8"?>
                <map version="1.10" orientation="orthogonal" renderorder="right-down" width="2" height="1" tilewidth="8" tileheight="8" infinite="0">
                 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="4" columns="2">
                  <image source="t.png" width="16" height="16"/>
                 </tileset>
                 <layer id="1" name="ground" width="2" height="1"><data encoding="csv">1,4</data></layer>
                </map>
                """)
        _ = try directory.write("t.png", PNGFixture.rgba(width: 16, height: 16, pixels: PNGFixture.noise(width: 16, height: 16)))
        let loose = try PreloadCoordinator(plugins: [PNGLoader(), TileMapLoader()])
        let report = try await loose.preload([AssetRequest(path: map, name: "small")])
        let pack = directory.file("small.bake")
        try BakeWriter.write(report, to: pack)
        // The tileset's tile count raised from 4 to 9 in the entry's JSON, and the grid's second tile (IDs 1 and 4,
        // 32-bit little-endian after the JSON) made the ninth, the entry's checksum trusted: the load checks placed
        // tiles again, and the ninth lies outside the 16x16 image.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pack)))
        let count = try #require(bytes.firstRange(of: Array(#""tileCount":4"#.utf8)))
        bytes[count.upperBound - 1] = UInt8(ascii: "9")
        let tiles = try #require(bytes.firstRange(of: [1, 0, 0, 0, 4, 0, 0, 0] as [UInt8]))
        bytes[tiles.lowerBound + 4] = 9
        _ = try directory.write("damaged.bake", bytes)
        let baked = try PreloadCoordinator(plugins: [TileMapLoader(), BakedPackLoader(verification: .indexOnly)])
        let damaged = try await baked.preload([AssetRequest(path: directory.file("damaged.bake"))])
        let error = try #require(damaged.errors.first)
        #expect("\(error)".contains("lies outside"), "\(error)")
    }
}
