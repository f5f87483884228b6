import Preload
import PreloadFont

/// A rasterized font is a bitmap font: the TrueType plugin reads baked fonts back too, so a pack
/// baked from `.ttf` files loads without the bitmap font plugin.
extension TrueTypeFontLoader: BakingPlugin {
    /// `BitmapFont`.
    public var bakedAssetTypes: [any BakeableAsset.Type] { [BitmapFont.self] }
}
