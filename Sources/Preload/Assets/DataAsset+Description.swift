extension DataAsset: DescribedAsset {
    /// The bytes, as loaded.
    public var checksummedParts: [ChecksummedPart] {
        let bytes = bytes
        return [ChecksummedPart { bytes }]
    }

    /// Nothing beyond the entry's own fields: its size, and its digest with `--checksum`.
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        AssetDescription()
    }
}
