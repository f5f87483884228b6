/// A tile layer's tiles: one grid the size of the layer on a finite map, or the chunks an
/// infinite map stores (each a grid at a position of its own).
public struct TileLayer: Sendable, Equatable, Codable {
    /// The tiles of a finite map's layer, row by row from the top-left; empty (0 x 0) on an
    /// infinite map.
    public var grid: TileGrid
    /// The chunks of an infinite map's layer, ordered as Tiled orders them (by row, then
    /// column); empty on a finite map.
    public var chunks: [TileChunk]

    /// A finite map's layer of `grid`, or an infinite map's of `chunks`.
    public init(grid: TileGrid = TileGrid(), chunks: [TileChunk] = []) {
        self.grid = grid
        self.chunks = chunks
    }

    /// The tile at (`column`, `row`) in the map's tile coordinates (negative ones exist on an
    /// infinite map); ``TileGID/empty`` where there is none.
    public func tile(column: Int, row: Int) -> TileGID {
        if chunks.isEmpty { return grid.tile(column: column, row: row) }
        for chunk in chunks where column >= chunk.x && row >= chunk.y {
            let tile = chunk.tiles.tile(column: column - chunk.x, row: row - chunk.y)
            if !tile.isEmpty { return tile }
        }
        return .empty
    }

    /// Every placed tile (empty cells left out), with its position in the map's tile coordinates.
    public var placedTiles: [(column: Int, row: Int, tile: TileGID)] {
        let areas = chunks.isEmpty ? [(0, 0, grid)] : chunks.map { ($0.x, $0.y, $0.tiles) }
        var placed: [(column: Int, row: Int, tile: TileGID)] = []
        for (x, y, tiles) in areas {
            for (index, tile) in tiles.tiles.enumerated() where !tile.isEmpty {
                placed.append((x + index % tiles.width, y + index / tiles.width, tile))
            }
        }
        return placed
    }

    /// How many tiles it stores (empty cells included).
    public var storedCount: Int { chunks.isEmpty ? grid.tiles.count : chunks.reduce(0) { $0 + $1.tiles.tiles.count } }
}

/// A rectangle of tiles, row by row from the top-left.
public struct TileGrid: Sendable, Hashable {
    /// Its width in tiles.
    public let width: Int
    /// Its height in tiles.
    public let height: Int
    /// Its `width * height` tiles, row by row.
    public let tiles: [TileGID]

    /// A grid of `width` x `height` `tiles`; `nil` unless `tiles` has exactly `width * height`.
    public init?(width: Int, height: Int, tiles: [TileGID]) {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width >= 0, height >= 0, !overflow, count == tiles.count else { return nil }
        self.width = width
        self.height = height
        self.tiles = tiles
    }

    /// An empty grid (0 x 0).
    public init() {
        (width, height, tiles) = (0, 0, [])
    }

    /// The tile at (`column`, `row`); ``TileGID/empty`` outside the grid.
    public func tile(column: Int, row: Int) -> TileGID {
        guard column >= 0, row >= 0, column < width, row < height else { return .empty }
        return tiles[row * width + column]
    }
}

/// Part of an infinite map's tile layer: a grid whose top-left tile is at (``x``, ``y``).
public struct TileChunk: Sendable, Hashable, Codable {
    /// The column of its top-left tile, in the map's tile coordinates.
    public var x: Int
    /// The row of its top-left tile.
    public var y: Int
    /// Its tiles.
    public var tiles: TileGrid

    /// A chunk of `tiles` whose top-left tile is at (`x`, `y`).
    public init(x: Int, y: Int, tiles: TileGrid) {
        self.x = x
        self.y = y
        self.tiles = tiles
    }
}
