/// What a ``BakeableAsset`` bakes into: the entry's bytes and the few fields its index record
/// keeps beside them.
public struct BakedEntry: Sendable {
    /// The entry's data, written as they are (aligned to 64 bytes, or 4 KiB from 64 KiB on).
    public var bytes: AssetBytes
    /// A texture's size in pixels, kept in the record (0 for other kinds).
    public var width: Int, height: Int
    /// Two bits of the record (bits 0 and 1, values 1 and 2) that belong to the entry's kind: a
    /// texture keeps its 16-bit samples and its premultiplied alpha there.
    public var kindBits: UInt8
    /// The kind name to record, when not the type's ``BakeableAsset/bakedKind`` (a texture in a
    /// GPU format is a `gpuTexture` entry).
    public var kind: String?

    /// An entry holding `bytes`.
    public init(bytes: AssetBytes, width: Int = 0, height: Int = 0, kindBits: UInt8 = 0, kind: String? = nil) {
        precondition(kindBits & ~3 == 0, "a kind has two bits of the record")
        self.bytes = bytes
        self.width = width
        self.height = height
        self.kindBits = kindBits
        self.kind = kind
    }
}
