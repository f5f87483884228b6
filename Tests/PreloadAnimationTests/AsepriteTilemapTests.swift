import Preload
import PreloadAnimation
import PreloadZlib
import Testing

/// Tilemap layers drawn from their tilesets (tileset chunk 0x2023, cel type 3), and their damage
/// failing by name.
@Suite struct AsepriteTilemapTests {
    typealias F = AsepriteFixture

    /// Pixel `n` of the tests' tiles: an opaque RGBA colour nobody else uses.
    static func p(_ n: UInt8) -> [UInt8] { [n, n &* 2, n &* 3, 255] }

    /// Three 2x2 tiles: 0 empty, 1 = (1 2 / 3 4), 2 = (5 6 / 7 8), pixels as ``p(_:)``.
    static var tiles: [UInt8] { [UInt8](repeating: 0, count: 16) + [1, 2, 3, 4, 5, 6, 7, 8].flatMap(p) }

    func canvas(_ file: AsepriteFixture, frame: Int = 0) throws -> [UInt8] {
        try AsepriteLoader.animation(from: file.bytes).animation.canvasPixels(ofFrame: frame)
    }

    func failure(_ file: AsepriteFixture) -> String? {
        do {
            _ = try AsepriteLoader.animation(from: file.bytes)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A `width`x`height` sprite with the three tiles and one tilemap layer showing `cel`.
    func sprite(width: Int, height: Int, _ cel: [UInt8], opacity: Int = 255) throws -> AsepriteFixture {
        var file = F(width: width, height: height)
        file.frames = [
            F.Frame(
                duration: 1,
                chunks: [try F.tileset(count: 3, width: 2, height: 2, tiles: Self.tiles), F.layer("Ground", type: 2, opacity: opacity), cel])
        ]
        return file
    }

    @Test func tilesDrawAtTheirCellsWithTheirFlips() throws {
        let (x, y, d): (UInt32, UInt32, UInt32) = (0x8000_0000, 0x4000_0000, 0x2000_0000)
        let cel = try F.tilemapCel(layer: 0, width: 4, height: 1, tiles: [1, 2 | x, 1 | y, 1 | d | x])
        let pixels = try canvas(try sprite(width: 8, height: 2, cel))
        let p = Self.p
        // Tile 1 as is; tile 2 mirrored (6 5 / 8 7); tile 1 upside down (3 4 / 1 2); tile 1 with
        // its axes swapped after its mirror, a quarter turn clockwise (3 1 / 4 2).
        let rows: [[UInt8]] = [[1, 2, 6, 5, 3, 4, 3, 1], [3, 4, 8, 7, 1, 2, 4, 2]]
        #expect(pixels == rows.flatMap { $0.flatMap(p) })
    }

    @Test func theEmptyTileShowsNothingAndTheCelsPositionAndOpacityApply() throws {
        let cel = try F.tilemapCel(layer: 0, x: -1, y: 1, opacity: 128, width: 2, height: 1, tiles: [2, 0])
        let pixels = try canvas(try sprite(width: 3, height: 3, cel))
        // Tile 2 one pixel left of the canvas and one down: its right column (6, 8) shows, at
        // 128 alpha; the empty tile's cell stays transparent.
        var expected = [UInt8](repeating: 0, count: 3 * 3 * 4)
        expected.replaceSubrange(3 * 4..<4 * 4, with: [6, 12, 18, 128])
        expected.replaceSubrange(6 * 4..<7 * 4, with: [8, 16, 24, 128])
        #expect(pixels == expected)
    }

    @Test func tilemapsWhollyOffTheCanvasDrawNothing() throws {
        // Fuzz/run aseprite found a trap: a tilemap whose cells all lie left of (or above) the
        // canvas made a range whose start passed its end.
        for (x, y) in [(-100, 0), (0, -100), (100, 0), (0, 100), (-5, -5)] {
            let cel = try F.tilemapCel(layer: 0, x: x, y: y, width: 2, height: 2, tiles: [1, 2, 1, 2])
            #expect(try canvas(try sprite(width: 2, height: 2, cel)) == [UInt8](repeating: 0, count: 16), "at \(x), \(y)")
        }
    }

    @Test func aSwappedNonSquareTileClearsWhatItsSquareDoesNotCover() throws {
        var file = F(width: 2, height: 1)
        file.frames = [
            F.Frame(
                duration: 1,
                chunks: [
                    try F.tileset(count: 2, width: 2, height: 1, tiles: [0, 0, 0, 0, 0, 0, 0, 0] + Self.p(1) + Self.p(2)),
                    F.layer("under"), F.layer("Ground", type: 2),
                    F.rawCel(layer: 0, width: 2, height: 1, pixels: Self.p(9) + Self.p(9)),
                    try F.tilemapCel(layer: 1, width: 1, height: 1, tiles: [1 | 0x2000_0000]),
                ])
        ]
        // A 2x1 tile with its axes swapped: only its 1x1 square shows; Aseprite clears the
        // other pixel of the cell to transparent, over the layer under it.
        #expect(try canvas(file) == Self.p(1) + [0, 0, 0, 0])
    }

    @Test func linkedTilemapCelsAndTilemapsInBlendModes() throws {
        var file = F(width: 2, height: 2)
        file.frames = [
            F.Frame(
                duration: 1,
                chunks: [
                    try F.tileset(count: 3, width: 2, height: 2, tiles: Self.tiles), F.layer("under"),
                    F.layer("Ground", type: 2, blendMode: 10),
                    F.rawCel(layer: 0, width: 1, height: 1, pixels: [100, 100, 100, 255]),
                    try F.tilemapCel(layer: 1, width: 1, height: 1, tiles: [1]),
                ]),
            F.Frame(duration: 1, chunks: [F.rawCel(layer: 0, width: 1, height: 1, pixels: [100, 100, 100, 255]), F.linkedCel(layer: 1, frame: 0)]),
        ]
        // Difference over (100,100,100): |100 - 1|, |100 - 2|, |100 - 3|; elsewhere the tile as is.
        let expected: [UInt8] = [99, 98, 97, 255] + [2, 4, 6, 255, 3, 6, 9, 255, 4, 8, 12, 255]
        #expect(try canvas(file) == expected && canvas(file, frame: 1) == expected)
    }

    @Test func indexedTilesCompositeByIndex() throws {
        var file = F(width: 2, height: 1, depth: 8)
        file.frames = [
            F.Frame(
                duration: 1,
                chunks: [
                    F.palette([[0, 0, 0, 0], [10, 20, 30, 255], [40, 50, 60, 128]]),
                    try F.tileset(count: 2, width: 1, height: 1, tiles: [0, 2]), F.layer("under"), F.layer("Ground", type: 2, opacity: 10),
                    F.rawCel(layer: 0, width: 2, height: 1, pixels: [1, 1]), try F.tilemapCel(layer: 1, width: 2, height: 1, tiles: [1, 0]),
                ])
        ]
        // Tile 1 is index 2, which replaces index 1 whatever its layer's opacity; no tile keeps it.
        #expect(try canvas(file) == [40, 50, 60, 128, 10, 20, 30, 255])
    }

    @Test func damagedTilemapsAndTilesetsFailByName() throws {
        let cel = try F.tilemapCel(layer: 0, width: 2, height: 1, tiles: [1, 3])
        #expect(
            failure(try sprite(width: 4, height: 2, cel))
                == "malformed Aseprite file: layer 'Ground''s tilemap has tile 3 at column 2, row 1, outside tileset 'tiles''s 3 tiles")
        // Off the canvas, a bad tile is never looked at (nor does Aseprite look).
        #expect(failure(try sprite(width: 2, height: 2, cel)) == nil)
        var file = try sprite(width: 2, height: 2, try F.tilemapCel(layer: 0, width: 1, height: 1, tiles: [1]))
        file.frames[0].chunks[0] = try F.tileset(count: 3, width: 2, height: 2, tiles: Self.tiles, length: 4000)
        #expect(failure(file)?.contains("tileset 'tiles' of 3 2x2 tiles's 4000 compressed bytes") == true)
        file.frames[0].chunks[0] = try F.tileset(count: 3, width: 2, height: 2, stored: try Zlib.compress(Array(Self.tiles.prefix(40)), level: 9))
        #expect(failure(file)?.hasSuffix("tileset 'tiles' of 3 2x2 tiles's compressed pixels inflate to 40 bytes, not 48") == true)
        file.frames[0].chunks[0] = try F.tileset(
            count: 3, width: 2, height: 2, stored: try Zlib.compress([UInt8](repeating: 7, count: 1 << 20), level: 9))
        #expect(failure(file)?.hasSuffix("tileset 'tiles' of 3 2x2 tiles's compressed pixels inflate past its 48 bytes") == true)
        file.frames[0].chunks[0] = try F.tileset(count: 0xFFFF_FFFF, width: 65535, height: 65535)
        #expect(failure(file)?.contains("of 4294967295 65535x65535 tiles takes the pixels past the 1073741824-byte limit") == true)
        file.frames[0].chunks[0] = try F.tileset(count: 3, width: 0, height: 2)
        #expect(failure(file)?.hasSuffix("tileset 'tiles' has 0x2 tiles") == true)
        file.frames[0].chunks[0] = try F.tileset(id: 5, count: 3, width: 2, height: 2, tiles: Self.tiles)
        #expect(failure(file) == "malformed Aseprite file: tilemap layer 'Ground' uses tileset 0, which the file does not have")
    }

    @Test func damagedTilemapCelsFailByName() throws {
        let bomb = try Zlib.compress([UInt8](repeating: 1, count: 1 << 20), level: 9)
        let file = try sprite(width: 2, height: 2, try F.tilemapCel(layer: 0, width: 1, height: 1, tiles: [], stored: bomb))
        #expect(failure(file)?.hasSuffix("1x1 tilemap's compressed pixels inflate past its 4 bytes") == true)
        let short = try sprite(width: 2, height: 2, try F.tilemapCel(layer: 0, width: 2, height: 1, tiles: [1]))
        #expect(failure(short)?.hasSuffix("2x1 tilemap's compressed pixels inflate to 4 bytes, not 8") == true)
        let narrow = try sprite(width: 2, height: 2, try F.tilemapCel(layer: 0, width: 1, height: 1, tiles: [1], bits: 16))
        #expect(failure(narrow)?.hasSuffix("is a tilemap of 16-bit tiles (Aseprite writes and reads 32-bit tiles)") == true)
    }

    @Test func tilesInAnExternalFileAreRefusedByName() throws {
        var file = try sprite(width: 2, height: 2, try F.tilemapCel(layer: 0, width: 1, height: 1, tiles: [1]))
        file.frames[0].chunks[0] = try F.tileset(flags: 1 | 4, count: 3, width: 2, height: 2, name: "shared")
        #expect(
            failure(file)
                == "unsupported Aseprite file: tilemap layer 'Ground' uses tileset 'shared', whose tiles are in an external file (not read)")
        file.frames[0].chunks[0] = try F.tileset(flags: 2, count: 3, width: 2, height: 2, tiles: Self.tiles)
        #expect(failure(file)?.contains("marks its empty tile with all bits set") == true)
    }
}
