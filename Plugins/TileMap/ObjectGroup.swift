/// An object layer's objects (also a tile's collision shapes).
public struct ObjectGroup: Sendable, Equatable, Codable {
    /// In which order the objects are drawn.
    public enum DrawOrder: String, Sendable, Hashable, Codable {
        /// By their y coordinate, top to bottom (`topdown`, the default).
        case topDown = "topdown"
        /// In the order the file lists them (`index`).
        case index
    }

    /// The colour the editor shows its objects in, if set.
    public var color: TiledColor?
    /// In which order its objects are drawn.
    public var drawOrder: DrawOrder
    /// Its objects, in the file's order.
    public var objects: [MapObject]

    /// A group of `objects`.
    public init(color: TiledColor? = nil, drawOrder: DrawOrder = .topDown, objects: [MapObject]) {
        self.color = color
        self.drawOrder = drawOrder
        self.objects = objects
    }
}

/// An object of an object layer: a rectangle, ellipse, point, polygon, polyline or text, or a
/// tile (an object with a ``gid``).
public struct MapObject: Sendable, Equatable, Codable {
    /// What an object's outline is.
    public enum Shape: Sendable, Equatable, Codable {
        /// A rectangle of ``MapObject/width`` x ``MapObject/height`` (a tile object's shape too).
        case rectangle
        /// An ellipse inside that rectangle.
        case ellipse
        /// A point at the object's position.
        case point
        /// A closed polygon, its points relative to the object's position.
        case polygon([SIMD2<Double>])
        /// An open polyline, its points relative to the object's position.
        case polyline([SIMD2<Double>])
        /// A text box of ``MapObject/width`` x ``MapObject/height``.
        case text(MapText)
    }

    /// Its unique ID in the map.
    public var id: Int
    /// Its name.
    public var name: String
    /// Its class (`type` in Tiled 1.8 and 1.10 on, `class` in 1.9); empty for none.
    public var className: String
    /// Its x position, in pixels.
    public var x: Double
    /// Its y position, in pixels (a tile object's bottom-left corner, others' top-left).
    public var y: Double
    /// Its width, in pixels.
    public var width: Double
    /// Its height, in pixels.
    public var height: Double
    /// Its rotation, in degrees clockwise around its position.
    public var rotation: Double
    /// The tile it shows, with its flips, for a tile object.
    public var gid: TileGID?
    /// Whether it is shown.
    public var isVisible: Bool
    /// Its outline.
    public var shape: Shape
    /// The template file it refers to, resolved against the map, if it is a template instance.
    /// Templates are not read: the object has only what the map itself states.
    public var template: String?
    /// Its custom properties.
    public var properties: TiledProperties

    /// An object with the given ID, with the rest as Tiled's defaults unless given.
    public init(
        id: Int, name: String = "", className: String = "", x: Double = 0, y: Double = 0, width: Double = 0, height: Double = 0,
        rotation: Double = 0, gid: TileGID? = nil, isVisible: Bool = true, shape: Shape = .rectangle, template: String? = nil,
        properties: TiledProperties = [:]
    ) {
        self.id = id
        self.name = name
        self.className = className
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.rotation = rotation
        self.gid = gid
        self.isVisible = isVisible
        self.shape = shape
        self.template = template
        self.properties = properties
    }
}
