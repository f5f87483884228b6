extension LoadContext {
    /// The type that reads baked entries of the kind `name`, among core's and those of the
    /// batch's plugins (``BakingPlugin``); `nil` when none does.
    public func bakedAssetType(ofKind name: String) -> (any BakeableAsset.Type)? {
        bakedKinds.type(ofKind: name)
    }
}
