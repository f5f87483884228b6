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
    ///   what `texture` throws.
    public func withTextures(file: String, _ texture: (String) throws -> Texture) throws -> (map: TileMap, warnings: [AssetWarning]) {
        var map = self
        var warnings: [AssetWarning] = []
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
                try attach(&image, what: "\(what), tile \(map.tilesets[index].tiles[tile].id)")
                map.tilesets[index].tiles[tile].image = image
            }
        }
        map.layers = try map.layers.map { try $0.attachingImages(attach) }
        try map.checkPlacedTiles(file: file)
        return (map, warnings)
    }

    /// Checks that every tile a layer or an object places belongs to a tileset and lies inside
    /// its image (as sized now: the loaded images' sizes in a loaded map).
    func checkPlacedTiles(file: String) throws(TileMapError) {
        var cache: [UInt32: Bool] = [:]  // a tile ID without flips: whether it resolves inside its image
        func check(_ gid: TileGID, unknown: () -> TileMapError) throws(TileMapError) {
            guard !gid.isEmpty else { return }
            if let known = cache[gid.id] {
                if known { return }
                throw unknown()
            }
            guard let resolved = tile(for: TileGID(id: gid.id)) else {
                cache[gid.id] = false
                throw unknown()
            }
            guard resolved.rect.isInside(width: resolved.image.width, height: resolved.image.height) else {
                throw .tileOutsideImage(
                    file: file, tileset: tilesets[resolved.tilesetIndex].name, tile: resolved.tileID, rect: resolved.rect,
                    imageWidth: resolved.image.width, imageHeight: resolved.image.height)
            }
            cache[gid.id] = true
        }
        for layer in allLayers {
            switch layer.content {
            case .tiles(let tiles):
                let areas = tiles.chunks.isEmpty ? [(0, 0, tiles.grid)] : tiles.chunks.map { ($0.x, $0.y, $0.tiles) }
                for (x, y, grid) in areas {
                    for (index, gid) in grid.tiles.enumerated() {
                        try check(gid) {
                            .unknownTile(
                                file: file, layer: layer.name, column: x + index % grid.width, row: y + index / grid.width, gid: gid.rawValue)
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
