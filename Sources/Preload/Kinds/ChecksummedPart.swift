/// A part of an asset whose SHA-256 `preload --checksum` shows (``DescribedAsset/checksummedParts``):
/// a name, and how to get its bytes. The part named ``whole`` stands for the asset itself (a
/// texture's pixels, a sound's PCM): the command shows its digest as the entry's `sha256`. The
/// others (`page 0`, `frame 3`, an entry's name) are the asset's to place in its description,
/// which receives their digests (``AssetChecksums``).
///
/// The bytes are read once, on any thread, only when checksums are asked for; one that throws
/// has no digest.
public struct ChecksummedPart: Sendable {
    /// The name of the part that stands for the whole asset: `""`.
    public static let whole = ""

    /// The part's name, unique within its asset.
    public var name: String
    /// Reads the part's bytes.
    public var bytes: @Sendable () throws -> AssetBytes

    /// The part `name` whose bytes `bytes` reads.
    public init(_ name: String = ChecksummedPart.whole, bytes: @escaping @Sendable () throws -> AssetBytes) {
        self.name = name
        self.bytes = bytes
    }
}
