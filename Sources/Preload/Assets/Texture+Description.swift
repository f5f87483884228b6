extension Texture: DescribedAsset {
    /// The pixels, every level (rows top to bottom, no padding).
    public var checksummedParts: [ChecksummedPart] {
        let pixels = pixels
        return [ChecksummedPart { pixels }]
    }

    /// `width`, `height`, `pixelFormat` and `mipLevels` (when more than one); `64x64 rgba8`,
    /// `256x256 bc7, 9 levels`; briefly `64x64`.
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        var fields: DescriptionFields = ["width": .int(width), "height": .int(height), "pixelFormat": .string(pixelFormat.rawValue)]
        if mipLevelCount > 1 { fields["mipLevels"] = .int(mipLevelCount) }
        return AssetDescription(
            fields: fields, summary: "\(width)x\(height) \(pixelFormat)" + (mipLevelCount > 1 ? ", \(mipLevelCount) levels" : ""),
            brief: "\(width)x\(height)")
    }
}
