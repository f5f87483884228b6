import Preload

/// A bare CSV grid of tiles loads as a one-layer ``TileMap`` when its request carries these
/// options and names the plugin (`plugin: "tilemap"`): what Phaser's `tilemapCSV` loads. The
/// tile size is the caller's (CSV has none), and the map has no tilesets: the game adds its
/// tileset image itself, as Phaser's `addTilesetImage` does.
///
/// ```swift
/// import Preload
/// import PreloadTileMap
///
/// let csv = TileMapLoaderSettings(tileWidth: 16)
/// let level = AssetRequest(path: "maps/level1.csv", name: "level1", plugin: "tilemap",
///                          options: AssetOptions().with(TileMapLoaderSettings.self, csv))
/// ```
///
/// Rows are lines, values commas apart; every row must have as many values as the first. By
/// default values are tile indexes as Phaser and Tiled's CSV export write them (-1 for no tile,
/// 0 for a tileset's first tile), stored as global IDs one higher (so a tileset whose
/// ``Tileset/firstGID`` is 1 resolves them); ``Numbering-swift.enum/globalIDs`` reads Tiled's
/// global IDs (0 for no tile, flip bits allowed) as they are.
public struct TileMapLoaderSettings: Hashable, Sendable, AssetOptionKey {
    /// What the numbers in the file are.
    public enum Numbering: String, Hashable, Sendable {
        /// Tile indexes: -1 is no tile, `n` is the tileset's tile `n` (global ID `n + 1`).
        case tileIndexes
        /// Global tile IDs with flip bits, as in a TMX's CSV layer data: 0 is no tile.
        case globalIDs
    }

    /// The width of a tile, in pixels (at least 1).
    public var tileWidth: Int
    /// The height of a tile, in pixels (at least 1).
    public var tileHeight: Int
    /// What the numbers in the file are.
    public var numbering: Numbering

    /// Options for tiles of `tileWidth` x `tileHeight` pixels (`tileHeight` defaults to
    /// `tileWidth`; sizes below 1 become 1).
    public init(tileWidth: Int, tileHeight: Int? = nil, numbering: Numbering = .tileIndexes) {
        self.tileWidth = max(tileWidth, 1)
        self.tileHeight = max(tileHeight ?? tileWidth, 1)
        self.numbering = numbering
    }

    /// 32 x 32 tiles of tile indexes; a request carries CSV options only when one was set
    /// (`options.contains`).
    public static let defaultValue = TileMapLoaderSettings(tileWidth: 32)

    /// The one-layer map a CSV grid holds.
    /// - Parameters:
    ///   - bytes: the CSV text.
    ///   - layerName: the name of the map's one layer.
    ///   - file: the CSV file's path, for errors.
    /// - Throws: ``TileMapError/damagedLayerData(file:layer:detail:)`` for rows of different
    ///   lengths or values that are not tile numbers; ``TileMapError/tooLarge(file:layer:detail:)``.
    public func map(csv bytes: [UInt8], layerName: String, file: String) throws(TileMapError) -> TileMap {
        var rows: [[Substring]] = []
        let text = String(decoding: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...], as: UTF8.self)
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            guard !line.trimmingWhiteSpace.isEmpty else { continue }
            rows.append(line.split(separator: ",", omittingEmptySubsequences: false))
            guard rows.count == 1 || rows.last!.count == rows[0].count else {
                throw .damagedLayerData(
                    file: file, layer: layerName, detail: "row \(rows.count) has \(rows.last!.count) values, the first row \(rows[0].count)")
            }
            let (count, overflow) = rows.count.multipliedReportingOverflow(by: rows[0].count)
            guard !overflow, count <= TileMap.maximumTiles else {
                throw .tooLarge(file: file, layer: layerName, detail: "more than the \(TileMap.maximumTiles) tiles a layer may hold")
            }
        }
        let width = rows.first?.count ?? 0
        var tiles: [TileGID] = []
        tiles.reserveCapacity(width * rows.count)
        for (row, values) in rows.enumerated() {
            for (column, value) in values.enumerated() {
                guard let tile = gid(value.trimmingWhiteSpace) else {
                    throw .damagedLayerData(
                        file: file, layer: layerName,
                        detail: "the value '\(value.trimmingWhiteSpace)' at (\(column), \(row)) is not a \(numbering.wording)")
                }
                tiles.append(tile)
            }
        }
        let grid = TileGrid(width: width, height: rows.count, tiles: tiles) ?? TileGrid()
        return TileMap(
            width: width, height: rows.count, tileWidth: tileWidth, tileHeight: tileHeight, nextLayerID: 2, tilesets: [],
            layers: [TileMapLayer(id: 1, name: layerName, content: .tiles(TileLayer(grid: grid)))])
    }

    /// The global ID `value` stands for, or `nil` if it is not a number of this numbering.
    private func gid(_ value: Substring) -> TileGID? {
        switch numbering {
        case .globalIDs: return UInt32(value).map(TileGID.init(rawValue:))
        case .tileIndexes:
            guard let index = Int32(value), index >= -1, index < Int32(~TileGID.flagBits) else { return nil }
            return TileGID(rawValue: UInt32(index + 1))
        }
    }
}

extension TileMapLoaderSettings.Numbering {
    /// What one value is, in words.
    fileprivate var wording: String {
        switch self {
        case .tileIndexes: "tile index (-1 or more)"
        case .globalIDs: "global tile ID (0 to 4294967295)"
        }
    }
}

/// The former name of ``TileMapLoaderSettings``, before settings were named after their loader
/// (docs/architecture.md, "One naming rule").
@available(*, deprecated, renamed: "TileMapLoaderSettings")
public typealias TileMapCSVOptions = TileMapLoaderSettings
