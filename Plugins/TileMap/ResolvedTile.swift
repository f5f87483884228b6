import Preload

/// A global tile ID resolved: which tileset and tile it is, the image it is drawn from, where in
/// that image, and how it is flipped.
public struct ResolvedTile: Sendable, Equatable {
    /// The tileset's index in ``TileMap/tilesets``.
    public var tilesetIndex: Int
    /// The tile's ID within its tileset.
    public var tileID: Int
    /// The image it is drawn from (its ``TileImage/texture`` in a loaded map).
    public var image: TileImage
    /// Where in ``image`` the tile is, in pixels.
    public var rect: TileRect
    /// How it is mirrored or turned where it is placed.
    public var flips: TileFlips
}

extension TileMap {
    /// The index in ``tilesets`` of the tileset `gid` falls in: the one with the largest first ID
    /// not above it, as Tiled finds it; `nil` for an empty tile or one before every tileset.
    public func tilesetIndex(for gid: TileGID) -> Int? {
        let id = Int(gid.id)
        guard id != 0 else { return nil }
        var found: Int?
        for (index, tileset) in tilesets.enumerated() where tileset.firstGID <= id {
            if let best = found, tilesets[best].firstGID > tileset.firstGID { continue }
            found = index
        }
        return found
    }

    /// The tileset, image, rectangle and flips of `gid`; `nil` for an empty tile or an ID that
    /// no tileset has (a loaded map places none such). In a map described without its images,
    /// the rectangle follows the image sizes the file declares.
    public func tile(for gid: TileGID) -> ResolvedTile? {
        guard let index = tilesetIndex(for: gid) else { return nil }
        let tileID = Int(gid.id) - tilesets[index].firstGID
        guard let (image, rect) = tilesets[index].imageRect(ofTile: tileID) else { return nil }
        return ResolvedTile(tilesetIndex: index, tileID: tileID, image: image, rect: rect, flips: gid.flips)
    }
}
