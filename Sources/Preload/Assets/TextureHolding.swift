/// An asset that holds textures it shares with other assets (an atlas and its pages, which the
/// batch also loads and stores as textures of their own): the report counts each texture's
/// memory once, however many assets hold it (``PreloadReport/decodedBytes``).
///
/// A plugin whose asset keeps textures that the batch also loads on their own conforms its
/// asset type to it; an asset that owns all its bytes has no need to.
public protocol TextureHolding: Asset {
    /// The textures the asset holds. Its ``Asset/byteCount`` is their bytes and what it holds
    /// beyond them (a map's tile layers), which the report counts as the asset's own.
    var heldTextures: [Texture] { get }
}
