import Preload

extension TileMap {
    /// The map with each image's texture in place (`texture(path)` gives it: the loader passes
    /// the dependency it loaded), sizes and tileset columns taken from the loaded images as
    /// Tiled takes them, then checked: every tile a layer or an object places must belong to a
    /// tileset and lie inside its image. Returns the map and what the files were forgiven.
    /// - Parameters:
    ///   - file: the map's path, for errors.
    ///   - texture: the texture of the image at a path (one of ``images``).
    /// - Throws: ``TileMapError/unknownTile(file:layer:column:row:gid:)``,
    ///   ``TileMapError/unknownObjectTile(file:layer:object:gid:)``,
    ///   ``TileMapError/tileOutsideImage(file:tileset:tile:rect:imageWidth:imageHeight:)``, or
    ///   what `texture` throws. A tile's own image (an image-collection tileset's) for which
    ///   `texture` throws an `AssetError` of category `dependencyFailed`
    ///   is left out, with a `tilemap.unplaced-tile-image` warning, when no
    ///   placed tile needs it (places it, or shows it in its animation).
    public func withTextures(file: String, _ texture: (String) throws -> Texture) throws -> (map: TileMap, warnings: [AssetWarning]) {
        var map = self
        var warnings: [AssetWarning] = []
        var placed: Set<UInt32>?  // the tile IDs layers and objects place, found when a tile's image failed
        func attach(_ image: inout TileImage, what: String) throws {
            let loaded = try texture(image.path)
            if (image.width != 0 || image.height != 0) && (image.width != loaded.width || image.height != loaded.height) {
                warnings.append(
                    AssetWarning(
                        .tilemapImageSizeMismatch,
                        "\(what): the image \(image.source) is declared \(image.width)x\(image.height) but is \(loaded.width)x\(loaded.height)"))
            }
            image.width = loaded.width
            image.height = loaded.height
            image.texture = loaded
        }
        for index in map.tilesets.indices {
            let what = "tileset '\(map.tilesets[index].name)'"
            if var image = map.tilesets[index].image {
                try attach(&image, what: what)
                map.tilesets[index].image = image
                let tileset = map.tilesets[index]
                let columns = Tileset.columnCount(
                    imageWidth: image.width, tileWidth: tileset.tileWidth, margin: tileset.margin, spacing: tileset.spacing)
                if tileset.columns != 0 && tileset.columns != columns {
                    warnings.append(
                        AssetWarning(
                            .tilemapColumnsMismatch,
                            "\(what) declares \(tileset.columns) columns; its \(image.width)-pixel image holds \(columns), which are used"))
                }
                map.tilesets[index].columns = columns
                if tileset.tileCount == 0 { map.tilesets[index].tileCount = map.tilesets[index].imageCapacity }  // none declared, nor a size
            }
            for tile in map.tilesets[index].tiles.indices {
                guard var image = map.tilesets[index].tiles[tile].image else { continue }
                let tileWhat = "\(what), tile \(map.tilesets[index].tiles[tile].id)"
                do {
                    try attach(&image, what: tileWhat)
                    map.tilesets[index].tiles[tile].image = image
                } catch let error as AssetError where error.category == .dependencyFailed {
                    // An image no placed tile shows (a typo in a tile nobody uses) costs the map nothing.
                    placed = placed ?? placedTileIDs()
                    guard !needs(tileset: index, tile: map.tilesets[index].tiles[tile].id, placed: placed!) else { throw error }
                    let cause = (error.underlying as? AssetError)?.reason ?? error.reason
                    warnings.append(
                        AssetWarning(
                            .tilemapUnplacedTileImage,
                            "\(tileWhat): its image \(image.source) did not load (\(cause)); no layer or object places the tile, so the map loads without it"
                        ))
                    map.tilesets[index].tiles[tile].image = nil
                }
            }
        }
        map.layers = try map.layers.map { try $0.attachingImages(attach) }
        try map.checkPlacedTiles(file: file)
        return (map, warnings)
    }

    /// The tile IDs (without flips) that layers and objects place.
    func placedTileIDs() -> Set<UInt32> {
        var placed: Set<UInt32> = []
        for layer in allLayers {
            switch layer.content {
            case .tiles(let tiles):
                for grid in tiles.chunks.isEmpty ? [tiles.grid] : tiles.chunks.map(\.tiles) {
                    for gid in grid.tiles where gid.id != 0 { placed.insert(gid.id) }
                }
            case .objects(let group):
                for object in group.objects { if let gid = object.gid { placed.insert(gid.id) } }
            case .image, .group: break
            }
        }
        return placed
    }

    /// Whether a placed tile needs tile `tile` of the tileset at `index`: it is placed, or is a
    /// frame of a placed tile's animation.
    func needs(tileset index: Int, tile: Int, placed: Set<UInt32>) -> Bool {
        let tileset = tilesets[index]
        func isPlaced(_ id: Int) -> Bool {
            let gid = tileset.firstGID + id
            return gid > 0 && gid <= Int(UInt32.max) && placed.contains(UInt32(gid)) && tilesetIndex(for: TileGID(id: UInt32(gid))) == index
        }
        return isPlaced(tile) || tileset.tiles.contains { isPlaced($0.id) && $0.animation.contains { $0.tileID == tile } }
    }

    /// Checks that every tile a layer or an object places belongs to a tileset and lies inside
    /// its image (as sized now: the loaded images' sizes in a loaded map): most by ``FineTiles``,
    /// the rest one by one.
    func checkPlacedTiles(file: String) throws(TileMapError) {
        let fine = FineTiles(self)
        var cache: [UInt32: Bool] = [:]  // a tile ID without flips, outside the fine ranges: whether it resolves inside its image
        func check(_ gid: TileGID, unknown: () -> TileMapError) throws(TileMapError) {
            let id = gid.id
            guard id != 0, !fine.contains(id) else { return }
            if let known = cache[id] {
                if known { return }
                throw unknown()
            }
            guard let resolved = tile(for: TileGID(id: id)) else {
                cache[id] = false
                throw unknown()
            }
            guard resolved.rect.isInside(width: resolved.image.width, height: resolved.image.height) else {
                throw .tileOutsideImage(
                    file: file, tileset: tilesets[resolved.tilesetIndex].name, tile: resolved.tileID, rect: resolved.rect,
                    imageWidth: resolved.image.width, imageHeight: resolved.image.height)
            }
            cache[id] = true
        }
        for layer in allLayers {
            switch layer.content {
            case .tiles(let tiles):
                let areas = tiles.chunks.isEmpty ? [(0, 0, tiles.grid)] : tiles.chunks.map { ($0.x, $0.y, $0.tiles) }
                for (x, y, grid) in areas {
                    try grid.tiles.withUnsafeBufferPointer { tiles throws(TileMapError) in
                        for index in tiles.indices where !fine.contains(tiles[index].id) {  // the common case, without a call
                            try check(tiles[index]) {
                                let (row, column) = index.quotientAndRemainder(dividingBy: grid.width)
                                return .unknownTile(file: file, layer: layer.name, column: x + column, row: y + row, gid: tiles[index].rawValue)
                            }
                        }
                    }
                }
            case .objects(let group):
                for object in group.objects {
                    guard let gid = object.gid else { continue }
                    try check(gid) { .unknownObjectTile(file: file, layer: layer.name, object: object.id, gid: gid.rawValue) }
                }
            case .image, .group: break
            }
        }
    }
}

/// The global tile IDs that surely resolve inside their images, found without resolving each:
/// for each tileset cut from an image, the IDs from its first up to as many as its image holds
/// (and below the next tileset's first). Checking a 200x200 map's tiles one by one through
/// ``TileMap/tile(for:)`` cost more than decoding its tilesets' images.
private struct FineTiles {
    /// By ascending first ID, apart: each tileset's first ID and how many IDs from it are fine.
    private let ranges: [(first: UInt32, count: UInt32)]

    init(_ map: TileMap) {
        // In the order ``TileMap/tilesetIndex(for:)`` chooses: the last of equal first IDs wins.
        let order = map.tilesets.indices.sorted { (map.tilesets[$0].firstGID, $0) < (map.tilesets[$1].firstGID, $1) }
        var ranges: [(first: UInt32, count: UInt32)] = []
        for (position, index) in order.enumerated() {
            let tileset = map.tilesets[index]
            guard tileset.firstGID > 0, tileset.firstGID <= Int(UInt32.max) else { continue }
            let next = position + 1 < order.count ? map.tilesets[order[position + 1]].firstGID : Int(UInt32.max)
            var end = tileset.firstGID  // none, unless every cell the image holds is surely inside it
            if let image = tileset.image, tileset.margin >= 0, tileset.spacing >= 0, tileset.tileWidth > 0, tileset.tileHeight > 0,
                tileset.columns
                    <= Tileset.columnCount(imageWidth: image.width, tileWidth: tileset.tileWidth, margin: tileset.margin, spacing: tileset.spacing)
            {
                end = min(tileset.firstGID.addingReportingOverflow(tileset.imageCapacity).partialValue, next, Int(UInt32.max))
            }
            if end > tileset.firstGID { ranges.append((UInt32(tileset.firstGID), UInt32(end - tileset.firstGID))) }
        }
        self.ranges = ranges
    }

    /// Whether `id` is empty or surely resolves inside its image. The ranges do not overlap, so
    /// with a few tilesets every range is asked, without a branch that depends on the tile.
    func contains(_ id: UInt32) -> Bool {
        var hits: UInt8 = id == 0 ? 1 : 0
        if ranges.count <= 8 {
            for range in ranges { hits |= id &- range.first < range.count ? 1 : 0 }
            return hits != 0
        }
        var low = 0, high = ranges.count  // the last range whose first ID is at most `id`
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].first <= id { low = middle + 1 } else { high = middle }
        }
        return hits != 0 || (low > 0 && id &- ranges[low - 1].first < ranges[low - 1].count)
    }
}

extension TileMapLayer {
    /// The layer with `attach` applied to its image (an image layer's) and its sublayers'.
    fileprivate func attachingImages(_ attach: (inout TileImage, String) throws -> Void) throws -> TileMapLayer {
        var layer = self
        switch content {
        case .image(var content):
            if var image = content.image {
                try attach(&image, "image layer '\(name)'")
                content.image = image
                layer.content = .image(content)
            }
        case .group(let layers):
            layer.content = .group(try layers.map { try $0.attachingImages(attach) })
        case .tiles, .objects: break
        }
        return layer
    }
}
