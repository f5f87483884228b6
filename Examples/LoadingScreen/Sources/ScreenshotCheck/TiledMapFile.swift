import Foundation

/// A Tiled map read by this check itself (a TMX with CSV layers and external tilesets, each cut
/// from one image, tiles of the map's cell size), and drawn by Tiled's rules: a global ID's top
/// three bits are its flips (diagonal first, then horizontal, then vertical); its tileset is the
/// one with the largest first ID not above it; a tileset's tiles are cut from its image row by
/// row, `margin` pixels in from its edges and `spacing` pixels apart.
struct TiledMapFile {
    struct Tileset {
        var firstGID: Int
        var tileWidth: Int
        var tileHeight: Int
        var margin: Int
        var spacing: Int
        var columns: Int
        var image: Image
    }

    /// A mistake the drawing makes on purpose, to prove that the comparison notices it.
    enum Mutation: Equatable {
        /// The tile at `index` of tile layer `layer` drawn without its flips.
        case unflipped(layer: Int, index: Int)
        /// Tiles cut as if their tileset's image had no margin and no spacing.
        case noMarginOrSpacing
    }

    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    static let flippedHorizontally: UInt32 = 0x8000_0000
    static let flippedVertically: UInt32 = 0x4000_0000
    static let flippedDiagonally: UInt32 = 0x2000_0000
    static let flipBits = flippedHorizontally | flippedVertically | flippedDiagonally

    /// Its size in tiles, and a tile cell's in pixels.
    let columns: Int, rows: Int, tileWidth: Int, tileHeight: Int
    let tilesets: [Tileset]
    /// Each tile layer's global IDs, row by row, the bottom layer first.
    let layers: [[UInt32]]

    init(file: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let folder = (file as NSString).deletingLastPathComponent
        guard let map = Fields.tags("map", in: text, file: file).first else { throw Unreadable(description: "\(file): no <map>") }
        (columns, rows) = (try map.int("width"), try map.int("height"))
        (tileWidth, tileHeight) = (try map.int("tilewidth"), try map.int("tileheight"))
        tilesets = try Fields.tags("tileset", in: text, file: file).map { reference in
            let path = folder + "/" + (try reference.string("source"))
            let tsx = try String(contentsOfFile: path, encoding: .utf8)
            guard let tileset = Fields.tags("tileset", in: tsx, file: path).first, let image = Fields.tags("image", in: tsx, file: path).first else {
                throw Unreadable(description: "\(path): no <tileset> with an <image>")
            }
            let imagePath = (path as NSString).deletingLastPathComponent + "/" + (try image.string("source"))
            return Tileset(
                firstGID: try reference.int("firstgid"), tileWidth: try tileset.int("tilewidth"), tileHeight: try tileset.int("tileheight"),
                margin: try tileset.int("margin", or: 0), spacing: try tileset.int("spacing", or: 0), columns: try tileset.int("columns"),
                image: try Image.decode(file: imagePath))
        }
        let cellSize = (tileWidth, tileHeight)
        if let odd = tilesets.first(where: { ($0.tileWidth, $0.tileHeight) != cellSize }) {
            throw Unreadable(
                description: "\(file): a tileset's tiles are \(odd.tileWidth)x\(odd.tileHeight): this check draws tiles of the cells' size")
        }
        let cells = columns * rows
        layers = try text.matches(of: #/<layer\b[^>]*>\s*<data encoding="csv">([^<]*)</data>/#).map { match in
            let ids = match.1.split { $0 == "," || $0.isWhitespace }.compactMap { UInt32($0) }
            guard ids.count == cells else { throw Unreadable(description: "\(file): a CSV layer of \(ids.count) numbers, not \(cells)") }
            return ids
        }
        if layers.isEmpty { throw Unreadable(description: "\(file): no CSV tile layer") }
    }

    /// The map's size in pixels.
    var width: Int { columns * tileWidth }
    var height: Int { rows * tileHeight }

    /// Every placed tile with a flip: its layer and its index in it.
    var flippedTiles: [(layer: Int, index: Int)] {
        layers.enumerated().flatMap { layer, ids in ids.indices.filter { ids[$0] & Self.flipBits != 0 }.map { (layer, $0) } }
    }

    /// The map drawn over `background` (an image of the map's size).
    func drawn(over background: Image, mutation: Mutation? = nil) throws -> Image {
        var out = background
        for row in 0..<rows {
            for column in 0..<columns {
                let under = background.crop(x: column * tileWidth, y: row * tileHeight, width: tileWidth, height: tileHeight)
                out = out.placing(try cell(column: column, row: row, over: under, mutation: mutation), x: column * tileWidth, y: row * tileHeight)
            }
        }
        return out
    }

    /// The cell at (`column`, `row`): `background` (what is under it) with each layer's tile there drawn over it.
    func cell(column: Int, row: Int, over background: Image, mutation: Mutation? = nil) throws -> Image {
        var out = background
        let index = row * columns + column
        for (layer, ids) in layers.enumerated() {
            let gid = mutation == .unflipped(layer: layer, index: index) ? ids[index] & ~Self.flipBits : ids[index]
            let id = Int(gid & 0x0FFF_FFFF)
            guard id != 0 else { continue }
            guard let tileset = tilesets.filter({ $0.firstGID <= id }).max(by: { $0.firstGID < $1.firstGID }) else {
                throw Unreadable(description: "tile \(id) is in no tileset")
            }
            let (margin, spacing) = mutation == .noMarginOrSpacing ? (0, 0) : (tileset.margin, tileset.spacing)
            let number = id - tileset.firstGID
            var tile = tileset.image.crop(
                x: margin + number % tileset.columns * (tileset.tileWidth + spacing),
                y: margin + number / tileset.columns * (tileset.tileHeight + spacing),
                width: tileset.tileWidth, height: tileset.tileHeight)
            if gid & Self.flippedDiagonally != 0 { tile = tile.transposed() }
            if gid & Self.flippedHorizontally != 0 { tile = tile.mirrored() }
            if gid & Self.flippedVertically != 0 { tile = tile.flipped() }
            out = out.blending(tile, x: 0, y: 0)
        }
        return out
    }
}
