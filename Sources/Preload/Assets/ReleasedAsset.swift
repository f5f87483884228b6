/// What a batch's report keeps of a loaded asset it let go of (``PreloadOptions/reportKeepsAssets``
/// off): its kind and the bytes it held, so that counts and ``PreloadReport/decodedBytes`` read
/// as they would with the asset kept. Holds no pixels or bytes of its own.
public struct ReleasedAsset: Asset {
    /// The kind of the asset it replaces (``AssetKind/texture`` for a texture).
    public let kind: AssetKind
    /// The bytes the asset held before it was let go.
    public let releasedByteCount: Int

    /// Holds nothing: the point of releasing.
    public var byteCount: Int { 0 }

    /// What remains of `asset` once it is let go.
    public init(releasing asset: any Asset) {
        kind = asset.kind
        releasedByteCount = asset.byteCount
    }
}
