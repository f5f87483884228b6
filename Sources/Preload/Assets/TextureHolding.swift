/// An asset that holds textures it shares with other assets (an atlas and its pages, which the
/// batch also loads and stores as textures of their own): the report counts each texture's
/// memory once, however many assets hold it (``PreloadReport/decodedBytes``).
package protocol TextureHolding: Asset {
    /// The textures the asset holds, whose bytes make up its ``Asset/byteCount``.
    var heldTextures: [Texture] { get }
}
