import Foundation
import Preload

/// A map's tables as `Codable` (what a baked pack stores, `BakedMap`): every type of the map is
/// coded field for field, but for two. A grid's tiles are one base64 string of their 32-bit
/// little-endian IDs (a 200x200 layer is one string, not 40,000 numbers for a JSON reader to
/// parse one by one), and an image is coded without its texture, which the loader attaches.
extension TileGrid: Codable {
    private enum CodingKeys: String, CodingKey {
        case width, height, tiles
    }

    /// Reads a grid; throws when the tiles are not base64 of exactly `width * height` IDs.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let width = try container.decode(Int.self, forKey: .width), height = try container.decode(Int.self, forKey: .height)
        let text = try container.decode(String.self, forKey: .tiles)
        guard let bytes = Data(base64Encoded: text), bytes.count % 4 == 0 else {
            throw DecodingError.dataCorruptedError(forKey: .tiles, in: container, debugDescription: "the tiles are not base64 of 32-bit IDs")
        }
        let tiles = bytes.withUnsafeBytes { raw in
            (0..<raw.count / 4).map { TileGID(rawValue: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        guard let grid = TileGrid(width: width, height: height, tiles: tiles) else {
            throw DecodingError.dataCorruptedError(
                forKey: .tiles, in: container, debugDescription: "\(tiles.count) tiles for a \(width)x\(height) grid")
        }
        self = grid
    }

    /// Writes the grid: its size, and its tiles as base64.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        var bytes = Data(count: tiles.count * 4)
        bytes.withUnsafeMutableBytes { raw in
            for (index, tile) in tiles.enumerated() { raw.storeBytes(of: tile.rawValue.littleEndian, toByteOffset: index * 4, as: UInt32.self) }
        }
        try container.encode(bytes.base64EncodedString(), forKey: .tiles)
    }
}

extension TileImage: Codable {
    private enum CodingKeys: String, CodingKey {
        case path, source, width, height, transparentColor
    }

    /// Reads an image's description; its texture is `nil` until the loader attaches one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            path: try container.decode(String.self, forKey: .path), source: try container.decode(String.self, forKey: .source),
            width: try container.decode(Int.self, forKey: .width), height: try container.decode(Int.self, forKey: .height),
            transparentColor: try container.decodeIfPresent(TiledColor.self, forKey: .transparentColor))
    }

    /// Writes what the file says of the image, not its pixels.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(source, forKey: .source)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encodeIfPresent(transparentColor, forKey: .transparentColor)
    }
}
