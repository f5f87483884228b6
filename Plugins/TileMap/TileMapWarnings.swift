import Preload

extension AssetWarning.Code {
    /// An object is an instance of a template (`template="enemy.tx"`), which this plugin does not
    /// read: the object has only what the map itself states about it.
    public static let tilemapTemplateUnsupported: AssetWarning.Code = "tilemap.template-unsupported"
    /// A tileset declares a column count that its loaded image does not have; its tiles are cut
    /// as the image's width gives them, as Tiled cuts them.
    public static let tilemapColumnsMismatch: AssetWarning.Code = "tilemap.columns-mismatch"
    /// An image's declared size differs from the loaded image's; the loaded size is used, as
    /// Tiled uses it.
    public static let tilemapImageSizeMismatch: AssetWarning.Code = "tilemap.image-size-mismatch"
    /// A colour attribute that is not a colour (`tintcolor="blue-ish"`): ignored, as Tiled
    /// ignores it.
    public static let tilemapInvalidColor: AssetWarning.Code = "tilemap.invalid-color"
    /// A tile's own image (in an image-collection tileset) did not load, and no layer or object
    /// places the tile nor a placed tile's animation shows it: the map loads without that image
    /// (the tile has none), as Tiled opens it.
    public static let tilemapUnplacedTileImage: AssetWarning.Code = "tilemap.unplaced-tile-image"
}
