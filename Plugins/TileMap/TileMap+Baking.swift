import Preload

/// A Tiled map bakes as ``BakedMap`` (its tables as JSON, its tile IDs as 32-bit values), its
/// images stored as texture entries of their own; loading attaches them and checks every placed
/// tile again, as a loose map's load does.
extension TileMap: BakeableAsset {
    /// `tilemap`.
    public static var bakedKind: String { "tilemap" }
    /// `map`.
    public static var bakedNouns: (singular: String, plural: String) { ("map", "maps") }

    /// A map's images. Throws for a map whose images did not all load (a map loaded without its
    /// textures has nothing to bake them from).
    public func bakedPages() throws -> [BakedPage] {
        let images = self.images
        let pages = images.compactMap { image in image.texture.map { BakedPage(path: image.path, texture: $0) } }
        guard pages.count == images.count else { throw MapWithoutImages(missing: images.count - pages.count) }
        return pages
    }

    public func baked(pageEntries: [Int]) throws -> BakedEntry { BakedEntry(bytes: try BakedMap.encode(self, imageEntries: pageEntries)) }

    public static func unbaked(from entry: BakedEntryContents) throws -> any Asset {
        let (images, map) = try entry.bytes.withUnsafeBytes { try BakedMap.tables(of: $0, malformed: entry.malformed) }
        var textures: [String: Texture] = [:]
        for image in images { textures[image.path] = try entry.page(image.entry, path: image.path) }
        // Attached and checked as a loose map's are: every placed tile inside its tileset's image.
        let (loaded, _) = try map.withTextures(file: entry.path) { path in
            guard let texture = textures[path] else { throw entry.malformed("no entry holds its image \(path)") }
            return texture
        }
        return loaded
    }

    /// Why a map without its images has no baked form.
    struct MapWithoutImages: AssetFailure {
        let missing: Int
        var category: AssetError.Category { .dependencyFailed }
        var description: String { "a tilemap without its images (\(missing) did not load) has no baked form" }
    }
}

/// The Tiled map plugin reads baked maps back.
extension TileMapLoader: BakingPlugin {
    /// ``TileMap``.
    public var bakedAssetTypes: [any BakeableAsset.Type] { [TileMap.self] }
}
