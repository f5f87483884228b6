/// One layer of a map, in the map's order (bottom first), with what every kind of layer has:
/// its name, visibility, opacity, offset, parallax, tint and properties. A group's layers are
/// its ``Content-swift.enum/group(_:)``, so the layers form a tree as in Tiled.
public struct TileMapLayer: Sendable, Equatable, Codable {
    /// What a layer holds.
    public enum Content: Sendable, Equatable, Codable {
        /// A grid of tiles.
        case tiles(TileLayer)
        /// Objects: shapes, points, text and tile objects.
        case objects(ObjectGroup)
        /// One image.
        case image(ImageLayer)
        /// Other layers, drawn in order (bottom first).
        case group([TileMapLayer])
    }

    /// Its unique ID in the map (0 in maps older than Tiled 1.2).
    public var id: Int
    /// Its name.
    public var name: String
    /// Its class (Tiled 1.9 on); empty for none.
    public var className: String
    /// Whether it is shown.
    public var isVisible: Bool
    /// Its opacity, 0 to 1.
    public var opacity: Double
    /// Where it is drawn relative to its place, in pixels (`offsetx`, `offsety`).
    public var offset: SIMD2<Double>
    /// How fast it scrolls relative to the camera (`parallaxx`, `parallaxy`; 1 moves with it).
    public var parallax: SIMD2<Double>
    /// The colour its content is multiplied by, if any (`tintcolor`).
    public var tintColor: TiledColor?
    /// Its custom properties.
    public var properties: TiledProperties
    /// What it holds.
    public var content: Content

    /// A layer holding `content`, with the rest as Tiled's defaults unless given.
    public init(
        id: Int, name: String, className: String = "", isVisible: Bool = true, opacity: Double = 1, offset: SIMD2<Double> = .zero,
        parallax: SIMD2<Double> = SIMD2(1, 1), tintColor: TiledColor? = nil, properties: TiledProperties = [:], content: Content
    ) {
        self.id = id
        self.name = name
        self.className = className
        self.isVisible = isVisible
        self.opacity = opacity
        self.offset = offset
        self.parallax = parallax
        self.tintColor = tintColor
        self.properties = properties
        self.content = content
    }

    /// Its tiles, for a tile layer.
    public var tiles: TileLayer? {
        if case .tiles(let tiles) = content { return tiles }
        return nil
    }

    /// Its objects, for an object layer.
    public var objects: ObjectGroup? {
        if case .objects(let objects) = content { return objects }
        return nil
    }

    /// The layers inside it, for a group; empty for any other layer.
    public var sublayers: [TileMapLayer] {
        if case .group(let layers) = content { return layers }
        return []
    }
}

/// An image layer's image and how it repeats.
public struct ImageLayer: Sendable, Equatable, Codable {
    /// Its image; `nil` for an image layer without one.
    public var image: TileImage?
    /// Whether the image repeats along the x axis (`repeatx`).
    public var repeatsX: Bool
    /// Whether the image repeats along the y axis (`repeaty`).
    public var repeatsY: Bool

    /// An image layer showing `image`.
    public init(image: TileImage?, repeatsX: Bool = false, repeatsY: Bool = false) {
        self.image = image
        self.repeatsX = repeatsX
        self.repeatsY = repeatsY
    }
}
