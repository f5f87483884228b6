import Preload

extension TileMap: DescribedAsset {
    /// Each loaded image's pixels (a tileset's, an image layer's), in ``TileMap/images``' order.
    public var checksummedParts: [ChecksummedPart] { ChecksummedPart.pages(images.compactMap(\.texture)) }

    /// `columns`, `rows`, `tileWidth`, `tileHeight`, `orientation`, `layerCount` (groups' layers
    /// included), `tilesetCount`, and its loaded images as `pages`;
    /// `orthogonal map 20x15 of 16x16 tiles, 3 layers, 1 tileset`.
    public func assetDescription(checksums: AssetChecksums?) -> AssetDescription {
        let layerCount = allLayers.count
        let pages = images.compactMap { image in image.texture.map { (path: image.path, texture: $0) } }
        return AssetDescription(
            fields: [
                "columns": .int(width), "rows": .int(height), "tileWidth": .int(tileWidth), "tileHeight": .int(tileHeight),
                "orientation": .string(orientation.rawValue), "layerCount": .int(layerCount), "tilesetCount": .int(tilesets.count),
                "pages": .pages(pages, checksums: checksums),
            ],
            summary: "\(orientation.rawValue) map \(width)x\(height) of \(tileWidth)x\(tileHeight) tiles, "
                + "\(AssetDescription.counted(layerCount, "layer")), \(AssetDescription.counted(tilesets.count, "tileset"))")
    }
}
