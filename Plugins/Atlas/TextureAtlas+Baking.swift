import Foundation
import Preload

/// An atlas bakes as its frame table (``BakedAtlasTable``, JSON), its pages stored as texture
/// entries of their own; it loads back with its pages from the pack.
extension TextureAtlas: BakeableAsset {
    /// `atlas`.
    public static var bakedKind: String { "atlas" }
    /// `atlas`, `atlases`.
    public static var bakedNouns: (singular: String, plural: String) { ("atlas", "atlases") }

    public func bakedPages() throws -> [BakedPage] { pages.map { BakedPage(path: $0.path, texture: $0.texture) } }

    public func baked(pageEntries: [Int]) throws -> BakedEntry {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // the same atlas bakes to the same bytes
        return BakedEntry(bytes: AssetBytes([UInt8](try encoder.encode(BakedAtlasTable(self, pageEntries: pageEntries)))))
    }

    public static func unbaked(from entry: BakedEntryContents) throws -> any Asset {
        let table: BakedAtlasTable
        do {
            table = try JSONDecoder().decode(BakedAtlasTable.self, from: entry.bytes.withUnsafeBytes { Data($0) })
        } catch {
            throw entry.malformed("its atlas table does not read: \(error)")
        }
        let pages = try table.pages.map { AtlasPage(path: $0.path, texture: try entry.page($0.entry, path: $0.path)) }
        return try table.atlas(pages: pages, malformed: entry.malformed)
    }
}

/// The atlas plugin reads baked atlases back.
extension AtlasLoader: BakingPlugin {
    /// ``TextureAtlas``.
    public var bakedAssetTypes: [any BakeableAsset.Type] { [TextureAtlas.self] }
}
