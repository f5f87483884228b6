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
    private let pageLoader: (Int, String) throws -> Texture
    private let failure: (String) -> any Error
    private let warning: (AssetWarning) throws -> Void

    /// An entry's contents; the baked-pack loader makes them. `page` gets the texture of another
    /// entry by number (with the path the entry names it by), `malformed` makes the error for
    /// bytes that do not read, `warn` records a warning on the asset.
    public init(
        name: String, path: String, kind: String, bytes: AssetBytes, width: Int, height: Int, kindBits: UInt8,
        page: @escaping (Int, String) throws -> Texture, malformed: @escaping (String) -> any Error,
        warn: @escaping (AssetWarning) throws -> Void
    ) {
        self.name = name
        self.path = path
        self.kind = kind
        self.bytes = bytes
        self.width = width
        self.height = height
        self.kindBits = kindBits
        pageLoader = page
        failure = malformed
        warning = warn
    }

    /// The texture of entry `entry` of the pack (a page the entry named by number when it was
    /// baked), `path` being what the asset calls it; throws, naming both, when that entry is not
    /// a texture or did not load.
    public func page(_ entry: Int, path: String) throws -> Texture { try pageLoader(entry, path) }

    /// The error for an entry whose bytes do not read, saying `why`: the pack's malformed-entry
    /// error, naming the entry.
    public func malformed(_ why: String) -> any Error { failure(why) }

    /// Records a warning on the asset (in a strict batch, throws it as the failure).
    public func warn(_ warning: AssetWarning) throws { try self.warning(warning) }
}
