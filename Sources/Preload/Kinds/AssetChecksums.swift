/// The SHA-256 digests of an asset's ``ChecksummedPart``s, in lowercase hex, by part name: what
/// ``DescribedAsset/assetDescription(checksums:)`` receives when `--checksum` asked for them. A
/// part whose bytes could not be read has none.
public struct AssetChecksums: Sendable, Hashable {
    /// The digests, by part name.
    public var digests: [String: String]

    /// Digests by part name.
    public init(_ digests: [String: String] = [:]) { self.digests = digests }

    /// The digest of the part named `part`, if it has one.
    public subscript(part: String) -> String? {
        get { digests[part] }
        set { digests[part] = newValue }
    }

    /// The digest of the asset as a whole (the part named ``ChecksummedPart/whole``).
    public var whole: String? { digests[ChecksummedPart.whole] }
}
