import Preload

extension AssetWarning.Code {
    /// The header's `levelCount` is 0: the file asks its loader to make the mipmap chain. The
    /// texture holds the file's one level; no level is made up.
    public static let ktx2MipmapsNotGenerated: AssetWarning.Code = "ktx2.mipmaps-not-generated"
}
