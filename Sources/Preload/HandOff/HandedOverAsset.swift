/// What remains of an asset whose CPU copy was released once the engine took it over (see
/// ``AssetHandOff/releasesCPUCopies``): its kind, the size it had, a description of it, and the
/// handle the engine returned for it. The store and the report hold this in the asset's place,
/// so its pixels are freed as soon as the engine lets go of them too.
public struct HandedOverAsset: Asset {
    /// The kind of the asset it replaces (``AssetKind/texture`` for a texture).
    public let kind: AssetKind
    /// The bytes the asset held before it was released.
    public let releasedByteCount: Int
    /// What the asset was, for logs and reports: its kind and its description's summary
    /// (`DescribedAsset`: `"texture 512x512 rgba8"`), or its kind and size for an asset that
    /// does not describe itself (`"palette of 64 bytes"`).
    public let summary: String
    /// What the engine's upload returned for it (a GPU texture name, an `SDL_Texture` pointer
    /// wrapped in a `Sendable` type, ...).
    public let handle: any Sendable

    /// Holds nothing: the point of releasing.
    public var byteCount: Int { 0 }

    init(releasing asset: any Asset, handle: any Sendable) {
        kind = asset.kind
        releasedByteCount = asset.byteCount
        // What the kind says of itself (`DescribedAsset`: a texture's `64x64 rgba8`), after its kind.
        if let described = (asset as? any DescribedAsset)?.assetDescription(checksums: nil).summary {
            summary = "\(asset.kind) \(described)"
        } else {
            summary = "\(asset.kind) of \(asset.byteCount) bytes"
        }
        self.handle = handle
    }
}
