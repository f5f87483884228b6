/// An entry of a baked pack as its kind's ``BakeableAsset/unbaked(from:)`` reads it: its bytes
/// (a view of the mapped pack, checksum checked), the record's fields, its pages, and the way to
/// fail or warn naming the pack and the entry.
public struct BakedEntryContents {
    /// The entry's name (the store name loading its source gave it).
    public let name: String
    /// The path the entry is loaded as: `PACK#NAME`.
    public let path: String
    /// Its kind's name, as the pack records it.
    public let kind: String
    /// Its data: a view of the mapped pack, no copy. Sub-ranges stay views
    /// (``AssetBytes/extracting(_:)``).
    public let bytes: AssetBytes
    /// The record's width and height (a texture's size; 0 for other kinds).
    public let width: Int, height: Int
    /// The record's two bits that belong to the kind (``BakedEntry/kindBits``).
    public let kindBits: UInt8
    private let source: any BakedEntrySource

    /// An entry's contents, whose pages, errors and warnings `source` gives; the baked-pack
    /// loader makes them (a kind's test may too).
    public init(
        name: String, path: String, kind: String, bytes: AssetBytes, width: Int, height: Int, kindBits: UInt8, source: any BakedEntrySource
    ) {
        self.name = name
        self.path = path
        self.kind = kind
        self.bytes = bytes
        self.width = width
        self.height = height
        self.kindBits = kindBits
        self.source = source
    }

    /// The texture of entry `entry` of the pack (a page the entry named by number when it was
    /// baked), `path` being what the asset calls it; throws, naming both, when that entry is not
    /// a texture or did not load.
    public func page(_ entry: Int, path: String) throws -> Texture { try source.page(entry, path: path) }

    /// The error for an entry whose bytes do not read, saying `why`: the pack's malformed-entry
    /// error, naming the entry.
    public func malformed(_ why: String) -> any Error { source.malformed(why) }

    /// Records a warning on the asset (in a strict batch, throws it as the failure).
    public func warn(_ warning: AssetWarning) throws { try source.warn(warning) }
}

/// What gives an entry's kind the rest of the pack (``BakedEntryContents``): its pages, and
/// failures and warnings that name the pack and the entry. The baked-pack loader's, for the
/// entry it loads.
public protocol BakedEntrySource {
    /// The texture of entry `entry` of the pack, which the entry calls `path`.
    func page(_ entry: Int, path: String) throws -> Texture
    /// The error for the entry's bytes that do not read, saying `why`.
    func malformed(_ why: String) -> any Error
    /// Records `warning` on the asset being loaded.
    func warn(_ warning: AssetWarning) throws
}
