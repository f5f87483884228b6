import Preload

/// A bitmap font bakes as ``BakedFont`` (its metrics and pages as JSON, its glyphs and kerning as
/// fixed-size records), its pages stored as texture entries of their own.
extension BitmapFont: BakeableAsset {
    /// `font`.
    public static var bakedKind: String { "font" }

    public func bakedPages() throws -> [BakedPage] { pages.map { BakedPage(path: $0.path, texture: $0.texture) } }

    public func baked(pageEntries: [Int]) throws -> BakedEntry { BakedEntry(bytes: try BakedFont.encode(self, pageEntries: pageEntries)) }

    public static func unbaked(from entry: BakedEntryContents) throws -> any Asset {
        let (header, layout) = try entry.bytes.withUnsafeBytes { try BakedFont.header(of: $0, malformed: entry.malformed) }
        let pages = try header.pages.map { FontPage(path: $0.path, texture: try entry.page($0.entry, path: $0.path)) }
        return try entry.bytes.withUnsafeBytes {
            try BakedFont.font(in: $0, header: header, layout: layout, pages: pages, malformed: entry.malformed)
        }
    }
}

/// The bitmap font plugin reads baked fonts back.
extension BitmapFontLoader: BakingPlugin {
    /// ``BitmapFont``.
    public var bakedAssetTypes: [any BakeableAsset.Type] { [BitmapFont.self] }
}
