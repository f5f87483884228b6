/// An asset that says what it is: the fields of its `preload --json` entry, the words of its
/// `--verbose` line and of a `--watch` notice, and the parts `--checksum` digests. The command
/// asks `asset as? any DescribedAsset` and knows no kind; a kind's conformance lives beside its
/// type (`Texture` and `DataAsset` in this module, `TextureAtlas` in PreloadAtlas, ...), and a
/// third party's asset type conforms the same way.
///
/// ```swift
/// import Preload
///
/// struct Palette: DescribedAsset {
///     var title: String
///     var colors: [UInt32]
///
///     var kind: AssetKind { "palette" }
///     var byteCount: Int { colors.count * 4 }
///
///     var checksummedParts: [ChecksummedPart] {
///         let bytes = colors.flatMap { color in (0..<4).map { UInt8(truncatingIfNeeded: color >> ($0 * 8)) } }
///         return [ChecksummedPart { AssetBytes(bytes) }]
///     }
///
///     func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
///         AssetDescription(
///             fields: ["title": .string(title), "colors": .int(colors.count)],
///             summary: "palette '\(title)', \(AssetDescription.counted(colors.count, "color"))")
///     }
/// }
/// ```
public protocol DescribedAsset: Asset {
    /// The parts whose digests `--checksum` shows; none by default. The part named
    /// ``ChecksummedPart/whole`` is the entry's `sha256`; the description places the others.
    var checksummedParts: [ChecksummedPart] { get }

    /// What the asset is, with the digests of its ``checksummedParts`` when they were asked for
    /// (`nil` otherwise).
    func assetDescription(checksums: AssetChecksums?) -> AssetDescription
}

extension DescribedAsset {
    /// No parts.
    public var checksummedParts: [ChecksummedPart] { [] }
}
