import Preload

extension AssetKind {
    /// A Tiled map (``TileMap``).
    public static let tilemap: AssetKind = "tilemap"
}

/// A Tiled map: its geometry, tilesets and layers, read from TMX or Tiled's JSON (TMJ) alike,
/// with every image it uses loaded as a `Texture`.
///
/// ```swift
/// import Preload
/// import PreloadPNG
/// import PreloadTileMap
///
/// func drawLevel() async throws {
///     let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), TileMapLoader()])
///     _ = try await coordinator.preload([AssetRequest(path: "maps/level1.tmx", name: "level1")])
///     guard let map = coordinator.assets.asset(named: "level1", as: TileMap.self) else { return }
///     for layer in map.allLayers where layer.isVisible {
///         for placed in layer.tiles?.placedTiles ?? [] {
///             guard let tile = map.tile(for: placed.tile), let texture = tile.image.texture else { continue }
///             print(placed.column, placed.row, texture.width, tile.rect, tile.flips)
///         }
///     }
/// }
/// ```
///
/// Two maps are equal when they say the same: the textures are left out (``TileImage``), so a
/// TMX and Tiled's JSON export of it load as equal maps.
public struct TileMap: Asset, Equatable, Codable {
    /// The most tiles one layer (or chunk) may hold, and the most all of a map's layers may hold
    /// together: 2^26 (64 Mi tiles, 256 MiB of tile IDs), far beyond any map Tiled edits
    /// comfortably, and a bound on what a hostile file can make a load allocate.
    public static let maximumTiles = 1 << 26

    /// The format version the file was saved in (`version`: "1.8").
    public var version: String
    /// The Tiled version that saved it (`tiledversion`), if it says.
    public var tiledVersion: String
    /// Its class (Tiled 1.9 on); empty for none.
    public var className: String
    /// How its tiles are laid out.
    public var orientation: Orientation
    /// In which order its tiles are drawn.
    public var renderOrder: RenderOrder
    /// Its width in tiles (for an infinite map, what the editor showed).
    public var width: Int
    /// Its height in tiles.
    public var height: Int
    /// The width of a tile cell, in pixels.
    public var tileWidth: Int
    /// The height of a tile cell, in pixels.
    public var tileHeight: Int
    /// Whether its tile layers are stored as chunks (``TileLayer/chunks``).
    public var isInfinite: Bool
    /// The length of a hexagon's flat side, in pixels (hexagonal maps).
    public var hexSideLength: Int
    /// Which axis staggered and hexagonal maps shift along.
    public var staggerAxis: StaggerAxis
    /// Whether odd or even rows (or columns) are shifted.
    public var staggerIndex: StaggerIndex
    /// The point parallax scrolls around, in pixels (`parallaxoriginx`, `parallaxoriginy`).
    public var parallaxOrigin: SIMD2<Double>
    /// The colour behind everything, if set.
    public var backgroundColor: TiledColor?
    /// The ID the next new layer gets.
    public var nextLayerID: Int
    /// The ID the next new object gets.
    public var nextObjectID: Int
    /// Its custom properties.
    public var properties: TiledProperties
    /// Its tilesets, in the file's order.
    public var tilesets: [Tileset]
    /// Its layers, bottom first; groups hold theirs (``allLayers`` lists every one).
    public var layers: [TileMapLayer]

    /// A map with the given geometry, tilesets and layers, the rest as Tiled's defaults unless given.
    public init(
        version: String = "1.8", tiledVersion: String = "", className: String = "", orientation: Orientation = .orthogonal,
        renderOrder: RenderOrder = .rightDown, width: Int, height: Int, tileWidth: Int, tileHeight: Int, isInfinite: Bool = false,
        hexSideLength: Int = 0, staggerAxis: StaggerAxis = .y, staggerIndex: StaggerIndex = .odd, parallaxOrigin: SIMD2<Double> = .zero,
        backgroundColor: TiledColor? = nil, nextLayerID: Int = 0, nextObjectID: Int = 0, properties: TiledProperties = [:],
        tilesets: [Tileset], layers: [TileMapLayer]
    ) {
        self.version = version
        self.tiledVersion = tiledVersion
        self.className = className
        self.orientation = orientation
        self.renderOrder = renderOrder
        self.width = width
        self.height = height
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.isInfinite = isInfinite
        self.hexSideLength = hexSideLength
        self.staggerAxis = staggerAxis
        self.staggerIndex = staggerIndex
        self.parallaxOrigin = parallaxOrigin
        self.backgroundColor = backgroundColor
        self.nextLayerID = nextLayerID
        self.nextObjectID = nextObjectID
        self.properties = properties
        self.tilesets = tilesets
        self.layers = layers
    }

    public var kind: AssetKind { .tilemap }
    /// Its images' pixels (each image once) and 4 bytes per stored tile.
    public var byteCount: Int {
        heldTextures.reduce(0) { $0 + $1.byteCount } + allLayers.reduce(0) { $0 + 4 * ($1.tiles?.storedCount ?? 0) }
    }

    /// Every layer, depth first in drawing order: a group, then the layers inside it.
    public var allLayers: [TileMapLayer] {
        func flattened(_ layers: [TileMapLayer]) -> [TileMapLayer] { layers.flatMap { [$0] + flattened($0.sublayers) } }
        return flattened(layers)
    }

    /// The first layer called `name` (depth first, as ``allLayers`` lists them).
    public func layer(named name: String) -> TileMapLayer? {
        allLayers.first { $0.name == name }
    }

    /// Every image the map uses, each path once, in the file's order: tileset images and
    /// image-collection tiles' images, then image layers' images. What loading the map requests.
    public var images: [TileImage] {
        var seen = Set<String>()
        let tilesetImages = tilesets.flatMap { tileset in [tileset.image].compactMap { $0 } + tileset.tiles.compactMap(\.image) }
        let layerImages = allLayers.compactMap { layer -> TileImage? in
            if case .image(let content) = layer.content { return content.image }
            return nil
        }
        return (tilesetImages + layerImages).filter { seen.insert($0.path).inserted }
    }
}

extension TileMap: TextureHolding {
    /// The textures of its images, each once: the image files the batch loaded (and counts) as
    /// textures of their own.
    public var heldTextures: [Texture] { images.compactMap(\.texture) }
}

extension TileMap: CustomStringConvertible {
    /// A one-line summary for logs: `orthogonal 30x20 map of 16x16 tiles: 2 tilesets, 5 layers`.
    public var description: String {
        "\(orientation.rawValue) \(width)x\(height)\(isInfinite ? " infinite" : "") map of \(tileWidth)x\(tileHeight) tiles: "
            + "\(tilesets.count) tileset\(tilesets.count == 1 ? "" : "s"), \(allLayers.count) layer\(allLayers.count == 1 ? "" : "s")"
    }
}
