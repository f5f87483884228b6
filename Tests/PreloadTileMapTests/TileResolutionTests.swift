import Foundation
import Preload
import PreloadTestSupport
import PreloadTileMap
import Testing

/// Global tile IDs resolve to the tileset, image and rectangle Tiled cuts, and every placed
/// tile's rectangle holds that tile's pixels (each tile of the fixtures' images is a colour of
/// its own; margins and spacing are magenta).
@Suite struct TileResolutionTests {
    @Test func columnsAreCountedAsTiledCountsThem() {
        // (imageWidth - margin + spacing) / (tileWidth + spacing), Tiled's columnCountForWidth.
        #expect(Tileset.columnCount(imageWidth: 75, tileWidth: 16, margin: 1, spacing: 2) == 4)
        #expect(Tileset.columnCount(imageWidth: 71, tileWidth: 16, margin: 1, spacing: 2) == 4)
        #expect(Tileset.columnCount(imageWidth: 70, tileWidth: 16, margin: 1, spacing: 2) == 3)
        #expect(Tileset.columnCount(imageWidth: 32, tileWidth: 8, margin: 0, spacing: 0) == 4)
        #expect(Tileset.columnCount(imageWidth: 10, tileWidth: 16, margin: 0, spacing: 8) == 0)
        #expect(Tileset.columnCount(imageWidth: 10, tileWidth: 16, margin: 100, spacing: 0) == 0)
        #expect(Tileset.columnCount(imageWidth: 10, tileWidth: 0, margin: 0, spacing: 0) == 0)
    }

    @Test func tilesResolveToTheRectanglesTiledCuts() async throws {
        let map = try await TileMapFixtures.map(TileMapFixtures.path("features.tmx"))
        // tiles.png: 75x54, 16x16 tiles, margin 1, spacing 2: 4 columns (3 stray pixels hold no tile), 3 rows.
        #expect(map.tilesets[0].columns == 4 && map.tilesets[0].rows == 3 && map.tilesets[0].tileCount == 12)
        for (gid, x, y) in [(1, 1, 1), (2, 19, 1), (4, 55, 1), (5, 1, 19), (6, 19, 19), (12, 55, 37)] {
            let tile = try #require(map.tile(for: TileGID(id: UInt32(gid))))
            #expect(tile.rect == TileRect(x: x, y: y, width: 16, height: 16), "gid \(gid)")
            #expect(tile.tilesetIndex == 0 && tile.tileID == gid - 1 && tile.image.path == TileMapFixtures.path("tiles.png"))
        }
        // terrain.tsx declares no columns: its 32-pixel image holds 4 of 8 pixels, as Tiled computes.
        #expect(map.tilesets[1].columns == 4 && map.tilesets[1].tileCount == 8 && map.tilesets[1].tileOffset == SIMD2(2, -3))
        #expect(map.tile(for: TileGID(id: 19))?.rect == TileRect(x: 16, y: 8, width: 8, height: 8))
        // The image collection: a tile's own image, whole.
        let slime = try #require(map.tile(for: TileGID(id: 24, flips: .vertical)))
        #expect(slime.image.source == "people/slime.png" && slime.rect == TileRect(x: 0, y: 0, width: 12, height: 9))
        #expect(slime.flips == .vertical && slime.tilesetIndex == 2 && slime.tileID == 3 && slime.image.texture?.width == 12)
        #expect(map.tilesets[2].isImageCollection && map.tilesets[2].tile(id: 0)?.className == "Hero")
        #expect(map.tile(for: TileGID(id: 23)) == nil, "the collection has no tile 2")
        #expect(map.tile(for: .empty) == nil && map.tile(for: TileGID(id: 25)) == nil)
    }

    @Test(arguments: ["features.tmx", "features.tmj", "encoding-zstd.tmx", "infinite-zlib.tmj", "hexagonal.tmx"])
    func everyPlacedTileHoldsItsTilesPixels(_ name: String) async throws {
        let map = try await TileMapFixtures.map(TileMapFixtures.path(name))
        let flat: [String: SIMD4<UInt8>] = [
            "people/hero.png": SIMD4(200, 40, 40, 255), "people/coin.png": SIMD4(240, 200, 40, 255), "people/slime.png": SIMD4(40, 200, 90, 255),
        ]
        var checked = 0
        for layer in map.allLayers {
            for placed in layer.tiles?.placedTiles ?? [] {
                let tile = try #require(map.tile(for: placed.tile))
                let texture = try #require(tile.image.texture)
                let colour =
                    try flat[tile.image.source]
                    ?? SIMD4(try #require(TileMapFixtures.sheets[tile.image.source]?.colours[String(tile.tileID)]).map { $0 })
                let corners = [(tile.rect.x, tile.rect.y), (tile.rect.x + tile.rect.width - 1, tile.rect.y + tile.rect.height - 1)]
                for (x, y) in corners { #expect(texture.rgba8(x: x, y: y) == colour, "\(name) \(layer.name) \(placed)") }
                checked += 1
            }
        }
        #expect(checked >= 5)
        let tiles = try #require(map.tilesets[0].image?.texture)
        #expect(tiles.rgba8(x: 0, y: 0) == SIMD4(255, 0, 255, 255) && tiles.rgba8(x: 17, y: 1) == SIMD4(255, 0, 255, 255), "margin, spacing")
    }

    @Test func aDescribedMapHasNoTexturesAndTheSizesItsFileDeclares() throws {
        let tmx = try TileMapLoader.describe(path: TileMapFixtures.path("features.tmx"))
        let tmj = try TileMapLoader.describe(path: TileMapFixtures.path("features.tmj"))
        #expect(tmx.images.allSatisfy { $0.texture == nil } && tmx.heldTextures.isEmpty)
        #expect(tmx.images.map(\.source) == ["tiles.png", "terrain.png", "people/hero.png", "people/coin.png", "people/slime.png", "sky.png"])
        #expect(tmx.tilesets[0].image?.width == 75 && tmx.tile(for: TileGID(id: 12))?.rect == TileRect(x: 55, y: 37, width: 16, height: 16))
        // Tiled 1.8's JSON does not state an image layer's image size; the loaded maps agree (its texture's).
        #expect(tmx.layer(named: "sky").flatMap { if case .image(let layer) = $0.content { layer.image?.width } else { nil } } == 24)
        #expect(tmj.layer(named: "sky").flatMap { if case .image(let layer) = $0.content { layer.image?.width } else { nil } } == 0)
    }

    @Test func aMapSummarizesItselfInOneLine() async throws {
        let map = try await TileMapFixtures.map(TileMapFixtures.path("infinite-csv.tmx"))
        #expect("\(map)" == "orthogonal 30x20 infinite map of 16x16 tiles: 3 tilesets, 1 layer")
        #expect(map.byteCount == map.heldTextures.reduce(0) { $0 + $1.byteCount } + 3 * 16 * 16 * 4)
        #expect(map.heldTextures.count == 5)
    }
}
