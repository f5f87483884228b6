import Preload

/// Why a map did not load: its file (or the external tileset it concerns) and the cause, naming
/// the layer, tileset or tile where there is one. The description leaves out the map's own
/// path, which the coordinator's `AssetError` puts in front.
public enum TileMapError: AssetFailure, Equatable {
    /// The file cannot be read as its format: not well-formed XML or JSON, a field missing or of
    /// the wrong type, a number out of range, groups nested too deep.
    case malformed(file: String, detail: String)
    /// The file asked for as a map is not a Tiled map (JSON without a map's keys, XML whose root
    /// is not `<map>`).
    case notATileMap(file: String, detail: String)
    /// A layer's tile data is damaged: not base64, a compressed stream that does not decompress,
    /// data of another size than the layer's, a CSV with the wrong count or a value that is not
    /// a tile ID.
    case damagedLayerData(file: String, layer: String, detail: String)
    /// A layer (or a chunk of one) larger than ``TileMap/maximumTiles`` tiles, or sides whose
    /// product overflows; or a map whose layers hold more than that together.
    case tooLarge(file: String, layer: String, detail: String)
    /// A tile layer places a global tile ID that none of the map's tilesets has, at (`column`, `row`).
    case unknownTile(file: String, layer: String, column: Int, row: Int, gid: UInt32)
    /// A tile object shows a global tile ID that none of the map's tilesets has.
    case unknownObjectTile(file: String, layer: String, object: Int, gid: UInt32)
    /// A placed tile's rectangle lies outside its tileset's image (the tileset declares more
    /// tiles than its image holds, or a tile's own rectangle reaches past its image).
    case tileOutsideImage(file: String, tileset: String, tile: Int, rect: TileRect, imageWidth: Int, imageHeight: Int)
    /// An external tileset cannot be read: missing, unreadable, or (inside an archive) outside it.
    case missingTileset(file: String, tileset: String, cause: String)
    /// External tilesets refer to one another in a loop.
    case tilesetLoop(file: String, chain: [String])
    /// The file uses something this plugin does not read (an orientation, an encoding or
    /// compression Tiled does not write, an image embedded in the file).
    case unsupported(file: String, detail: String)

    public var category: AssetError.Category {
        switch self {
        case .malformed, .damagedLayerData, .unknownTile, .unknownObjectTile, .tileOutsideImage, .tilesetLoop: .corrupt
        case .notATileMap, .unsupported: .unsupported
        case .tooLarge: .limitExceeded
        case .missingTileset: .dependencyFailed
        }
    }

    /// The file the problem is in: the map, or the external tileset concerned.
    public var file: String {
        switch self {
        case .malformed(let file, _), .notATileMap(let file, _), .damagedLayerData(let file, _, _), .tooLarge(let file, _, _),
            .unknownTile(let file, _, _, _, _), .unknownObjectTile(let file, _, _, _), .tileOutsideImage(let file, _, _, _, _, _),
            .missingTileset(let file, _, _), .tilesetLoop(let file, _), .unsupported(let file, _):
            file
        }
    }

    public var description: String {
        switch self {
        case .malformed(let file, let detail):
            "malformed map: \(Self.origin(file))\(detail)"
        case .notATileMap(_, let detail):
            "not a Tiled map: \(detail)"
        case .damagedLayerData(_, let layer, let detail):
            "layer '\(layer)': damaged tile data: \(detail)"
        case .tooLarge(_, let layer, let detail):
            "layer '\(layer)' is too large: \(detail)"
        case .unknownTile(_, let layer, let column, let row, let gid):
            "layer '\(layer)': the tile at (\(column), \(row)) is global tile ID \(TileGID(rawValue: gid).id), which no tileset of the map has"
        case .unknownObjectTile(_, let layer, let object, let gid):
            "layer '\(layer)': object \(object) shows global tile ID \(TileGID(rawValue: gid).id), which no tileset of the map has"
        case .tileOutsideImage(_, let tileset, let tile, let rect, let width, let height):
            "tileset '\(tileset)': tile \(tile) at \(rect) lies outside its image (\(width)x\(height))"
        case .missingTileset(_, let tileset, let cause):
            "external tileset \(tileset) cannot be read: \(cause)"
        case .tilesetLoop(_, let chain):
            "external tilesets refer to one another in a loop: \(chain.joined(separator: " -> "))"
        case .unsupported(let file, let detail):
            "unsupported map feature: \(Self.origin(file))\(detail)"
        }
    }

    /// `terrain.tsx: ` when the problem is in an external tileset rather than the map.
    private static func origin(_ file: String) -> String {
        AssetPath.fileExtension(of: file).hasPrefix("ts") ? AssetPath.fileName(of: file) + ": " : ""
    }
}
