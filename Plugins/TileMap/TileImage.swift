import Preload

/// An image a map uses: a tileset's image, an image-collection tile's, or an image layer's.
///
/// Equality compares what the file says (the path, the size, the transparent colour), not the
/// pixels: a map read from TMX and the same map read from its JSON export are equal, each with
/// textures of its own. The texture is the image's own asset, loaded by whichever image plugin
/// claims the file, so an image two maps use decodes once and both hold the same pixels.
public struct TileImage: Sendable, Equatable {
    /// The image file, resolved against the file that names it (the map, or an external
    /// tileset): the path its texture was requested by.
    public var path: String
    /// The name as the file writes it (`../tiles.png`), which engines match tilesets by.
    public var source: String
    /// The width in pixels: the loaded image's in a loaded map; in a description, what the file
    /// declares (0 when it does not).
    public var width: Int
    /// The height in pixels, as ``width``.
    public var height: Int
    /// The colour drawn as transparent (`trans`, `transparentcolor`), if any: the texture's
    /// pixels are the file's, and applying it is the renderer's.
    public var transparentColor: TiledColor?
    /// The decoded image; `nil` in a map described without loading its images
    /// (``TileMapLoader/describe(path:files:)``).
    public var texture: Texture?

    /// An image at `path`, written `source` in its file, of `width` x `height` pixels.
    public init(path: String, source: String, width: Int = 0, height: Int = 0, transparentColor: TiledColor? = nil, texture: Texture? = nil) {
        self.path = path
        self.source = source
        self.width = width
        self.height = height
        self.transparentColor = transparentColor
        self.texture = texture
    }

    /// Compares what the files say; the textures are left out (see the type's discussion).
    public static func == (lhs: TileImage, rhs: TileImage) -> Bool {
        lhs.path == rhs.path && lhs.source == rhs.source && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.transparentColor == rhs.transparentColor
    }
}
