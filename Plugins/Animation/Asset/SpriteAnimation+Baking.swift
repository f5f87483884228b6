import Preload

/// An animation bakes as `BakedAnimation` (its frames as fixed-size records, its pages and tags
/// as JSON), its pages stored as texture entries of their own (`NAME#1`, ...), as an atlas's
/// packed pages are; `preload bake --gpu` makes them GPU-ready as it does every texture. It loads
/// back with its pages as views of the mapped pack.
extension SpriteAnimation: BakeableAsset {
    /// `animation`.
    public static var bakedKind: String { "animation" }

    /// The pages, made at load (no file of their own; an export's pages made from its sheet).
    public func bakedPages() throws -> [BakedPage] { pages.map { BakedPage(path: "", texture: $0, madeFrom: pagesMadeFrom) } }

    public func baked(pageEntries: [Int]) throws -> BakedEntry {
        BakedEntry(bytes: try BakedAnimation.encode(self, pageEntries: pageEntries))
    }

    public static func unbaked(from entry: BakedEntryContents) throws -> any Asset {
        let layout = try entry.bytes.withUnsafeBytes { try BakedAnimation.layout(of: $0, malformed: entry.malformed) }
        let pages = try layout.tables.pages.enumerated().map { try entry.page($1.entry, path: "page \($0)") }
        return try entry.bytes.withUnsafeBytes {
            try BakedAnimation.animation(in: $0, layout: layout, pages: pages, malformed: entry.malformed)
        }
    }
}

/// The Aseprite export plugin reads baked animations back (a batch may register it alone).
extension AsepriteSheetLoader: BakingPlugin {
    /// ``SpriteAnimation``.
    public var bakedAssetTypes: [any BakeableAsset.Type] { [SpriteAnimation.self] }
}
