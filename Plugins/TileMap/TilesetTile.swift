/// What a tileset says about one of its tiles beyond its place in the image: its class, custom
/// properties, animation, collision shapes, and (in an image-collection tileset) its own image.
public struct TilesetTile: Sendable, Equatable, Codable {
    /// The tile's ID within its tileset (a global tile ID minus the tileset's first one).
    public var id: Int
    /// Its class (`type` before Tiled 1.9, `class` from 1.9 on); empty for none.
    public var className: String
    /// How likely the terrain tools are to pick it (1 unless set).
    public var probability: Double
    /// Its custom properties.
    public var properties: TiledProperties
    /// Its own image, in an image-collection tileset.
    public var image: TileImage?
    /// The part of ``image`` that is the tile (Tiled 1.9's `x`, `y`, `width`, `height`), when set;
    /// otherwise the whole image.
    public var imageRect: TileRect?
    /// Its animation: the frames in order, each a tile of the same tileset and a duration.
    public var animation: [TileAnimationFrame]
    /// Its collision shapes (the tile's object group), if it has any.
    public var collision: ObjectGroup?

    /// A tile with the given ID and, optionally, everything else a tileset may say about it.
    public init(
        id: Int, className: String = "", probability: Double = 1, properties: TiledProperties = [:], image: TileImage? = nil,
        imageRect: TileRect? = nil, animation: [TileAnimationFrame] = [], collision: ObjectGroup? = nil
    ) {
        self.id = id
        self.className = className
        self.probability = probability
        self.properties = properties
        self.image = image
        self.imageRect = imageRect
        self.animation = animation
        self.collision = collision
    }
}

/// One frame of a tile's animation.
public struct TileAnimationFrame: Hashable, Sendable, Codable {
    /// The tile shown, by its ID within the same tileset.
    public var tileID: Int
    /// How long it is shown, in milliseconds.
    public var duration: Int

    /// A frame showing tile `tileID` for `duration` milliseconds.
    public init(tileID: Int, duration: Int) {
        self.tileID = tileID
        self.duration = duration
    }
}
