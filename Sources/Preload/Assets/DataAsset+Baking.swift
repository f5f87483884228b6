/// A data file bakes as its bytes, as loaded (kind `data`), and loads as a view of the pack.
extension DataAsset: BakeableAsset {
    /// `data`.
    public static var bakedKind: String { "data" }
    /// `data file`.
    public static var bakedNouns: (singular: String, plural: String) { ("data file", "data files") }

    public func baked(pageEntries: [Int]) throws -> BakedEntry { BakedEntry(bytes: bytes) }

    public static func unbaked(from entry: BakedEntryContents) throws -> any Asset { DataAsset(bytes: entry.bytes) }
}
