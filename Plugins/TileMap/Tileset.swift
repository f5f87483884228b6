/// A tileset of a map: a grid of tiles cut from one image, or a collection of images, one per
/// tile. Its tiles' global IDs start at ``firstGID``.
///
/// A tile's rectangle is Tiled's: tiles are cut left to right, then top to bottom, starting
/// ``margin`` pixels in from the image's top-left corner, ``spacing`` pixels apart, and as many
/// columns as fit the image's width (``columnCount(imageWidth:tileWidth:margin:spacing:)``).
public struct Tileset: Sendable, Equatable, Codable {
    /// The global ID of its first tile.
    public var firstGID: Int
    /// The external tileset file (`.tsx`, `.tsj`) it was read from, resolved against the map;
    /// `nil` for a tileset embedded in the map.
    public var source: String?
    /// Its name.
    public var name: String
    /// Its class (Tiled 1.9 on); empty for none.
    public var className: String
    /// The width of its tiles' grid cells, in pixels (in an image collection, the largest tile's).
    public var tileWidth: Int
    /// The height of its tiles' grid cells, in pixels.
    public var tileHeight: Int
    /// Pixels between neighbouring tiles in the image.
    public var spacing: Int
    /// Pixels between the image's top-left edges and the first tile.
    public var margin: Int
    /// How many tiles it has: as the file declares (`tilecount`), else as many as fit its image,
    /// or in an image collection its tiles.
    public var tileCount: Int
    /// How many tiles one row of the image holds: in a loaded map, computed from the loaded
    /// image as Tiled computes it; in a description, as the file declares, else computed from the
    /// image size it declares. 0 for an image collection.
    public var columns: Int
    /// Where tiles are drawn relative to their cell, in pixels (`tileoffset`).
    public var tileOffset: SIMD2<Int>
    /// How tile objects of this tileset align to their position (`objectalignment`:
    /// `unspecified`, `topleft`, `top`, ..., `bottomright`).
    public var objectAlignment: String
    /// Its image; `nil` for an image collection, whose tiles have images of their own.
    public var image: TileImage?
    /// The tiles it says something about (properties, animations, images), by ascending ID.
    public var tiles: [TilesetTile]
    /// Its custom properties.
    public var properties: TiledProperties

    /// A tileset whose tiles' global IDs start at `firstGID`, with the rest as Tiled's defaults
    /// unless given.
    public init(
        firstGID: Int, source: String? = nil, name: String, className: String = "", tileWidth: Int, tileHeight: Int, spacing: Int = 0,
        margin: Int = 0, tileCount: Int, columns: Int, tileOffset: SIMD2<Int> = .zero, objectAlignment: String = "unspecified",
        image: TileImage?, tiles: [TilesetTile] = [], properties: TiledProperties = [:]
    ) {
        self.firstGID = firstGID
        self.source = source
        self.name = name
        self.className = className
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.spacing = spacing
        self.margin = margin
        self.tileCount = tileCount
        self.columns = columns
        self.tileOffset = tileOffset
        self.objectAlignment = objectAlignment
        self.image = image
        self.tiles = tiles.sorted { $0.id < $1.id }
        self.properties = properties
    }

    /// Whether its tiles have images of their own rather than cells of one image.
    public var isImageCollection: Bool { image == nil }

    /// How many tile columns fit an image `imageWidth` pixels wide, as Tiled counts them
    /// (`Tileset::columnCountForWidth`): `(imageWidth - margin + spacing) / (tileWidth + spacing)`,
    /// and 0 for a tile width of 0 or less (or a margin wider than the image).
    public static func columnCount(imageWidth: Int, tileWidth: Int, margin: Int, spacing: Int) -> Int {
        let (step, stepOverflow) = tileWidth.addingReportingOverflow(spacing)
        let (room, roomOverflow) = (imageWidth - margin).addingReportingOverflow(spacing)
        guard tileWidth > 0, step > 0, !stepOverflow, !roomOverflow, room > 0 else { return 0 }
        return room / step
    }

    /// How many rows of tiles its image holds, as Tiled counts them; 0 for an image collection.
    public var rows: Int {
        guard let image else { return 0 }
        return Self.columnCount(imageWidth: image.height, tileWidth: tileHeight, margin: margin, spacing: spacing)
    }

    /// How many tiles its image holds (``columns`` times ``rows``); 0 for an image collection.
    public var imageCapacity: Int {
        let (product, overflow) = columns.multipliedReportingOverflow(by: rows)
        return overflow ? .max : product
    }

    /// What it says about tile `id`, if anything.
    public func tile(id: Int) -> TilesetTile? {
        var low = 0, high = tiles.count
        while low < high {
            let middle = (low + high) / 2
            if tiles[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < tiles.count && tiles[low].id == id ? tiles[low] : nil
    }

    /// Whether tile `id` is one of its tiles: below its tile count (or what its image holds, if
    /// more: Tiled cuts every tile the image holds), or in an image collection one it lists.
    public func contains(tileID id: Int) -> Bool {
        guard id >= 0 else { return false }
        if isImageCollection { return tile(id: id)?.image != nil }
        return id < max(tileCount, imageCapacity)
    }

    /// The image tile `id` is drawn from and where in it: a cell of the tileset's image, or an
    /// image-collection tile's own image (all of it, or its ``TilesetTile/imageRect``). `nil`
    /// when the tileset has no such tile. The rectangle may lie outside the image when the file
    /// declares more tiles than the image holds: a loaded map has none such among the tiles it
    /// places.
    public func imageRect(ofTile id: Int) -> (image: TileImage, rect: TileRect)? {
        guard contains(tileID: id) else { return nil }
        guard let image else {
            guard let tile = tile(id: id), let image = tile.image else { return nil }
            return (image, tile.imageRect ?? TileRect(x: 0, y: 0, width: image.width, height: image.height))
        }
        guard columns > 0 else { return (image, TileRect(x: margin, y: margin, width: tileWidth, height: tileHeight)) }
        let (row, column) = id.quotientAndRemainder(dividingBy: columns)
        let x = Self.cellStart(margin: margin, index: column, size: tileWidth, spacing: spacing)
        let y = Self.cellStart(margin: margin, index: row, size: tileHeight, spacing: spacing)
        return (image, TileRect(x: x, y: y, width: tileWidth, height: tileHeight))
    }

    /// `margin + index * (size + spacing)`, saturating: a hostile tile count must not trap.
    private static func cellStart(margin: Int, index: Int, size: Int, spacing: Int) -> Int {
        let (step, stepOverflow) = size.addingReportingOverflow(spacing)
        let (offset, offsetOverflow) = index.multipliedReportingOverflow(by: step)
        let (start, startOverflow) = margin.addingReportingOverflow(offset)
        return stepOverflow || offsetOverflow || startOverflow ? .max : start
    }
}
