import Foundation
import Preload

/// A map's tables as `Codable` (what a baked pack stores, `BakedMap`): every type of the map is
/// coded field for field, but for two. A grid's tiles are bytes, not a number each: their 32-bit
/// little-endian IDs in a ``TileGrid/BinaryStorage`` the coder's `userInfo` carries (a baked
/// pack keeps them beside its JSON, read without a parse), else one base64 string; and an image
/// is coded without its texture, which the loader attaches.
extension TileGrid: Codable {
    /// Where grids' tiles go when a coder's `userInfo` has one under ``binaryStorageKey``: their
    /// IDs, 32-bit little-endian, one grid after another, each grid coding the offset of its own.
    public final class BinaryStorage: @unchecked Sendable {  // one coder's, on its thread
        /// The tiles' bytes.
        public var bytes: [UInt8]

        /// Storage holding `bytes` (empty to encode into; a pack's to decode from).
        public init(bytes: [UInt8] = []) { self.bytes = bytes }
    }

    /// The `userInfo` key of a ``BinaryStorage``.
    public static let binaryStorageKey = CodingUserInfoKey(rawValue: "PreloadTileMap.TileGrid.BinaryStorage")!

    private enum CodingKeys: String, CodingKey {
        case width, height, tiles, offset
    }

    /// Reads a grid; throws when its tiles are not exactly `width * height` IDs.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let width = try container.decode(Int.self, forKey: .width), height = try container.decode(Int.self, forKey: .height)
        func corrupt(_ why: String) -> DecodingError { .dataCorruptedError(forKey: .tiles, in: container, debugDescription: why) }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width >= 0, height >= 0, !overflow, count <= TileMap.maximumTiles else { throw corrupt("a \(width)x\(height) grid") }
        let tiles: [TileGID]
        let storage = decoder.userInfo[Self.binaryStorageKey] as? BinaryStorage
        if let storage, let offset = try container.decodeIfPresent(Int.self, forKey: .offset) {
            guard offset >= 0, offset <= storage.bytes.count - count * 4 else { throw corrupt("\(count) tiles at \(offset) lie outside the storage") }
            tiles = storage.bytes.withUnsafeBytes { raw in
                (0..<count).map { TileGID(rawValue: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + $0 * 4, as: UInt32.self))) }
            }
        } else {
            guard let bytes = Data(base64Encoded: try container.decode(String.self, forKey: .tiles)), bytes.count == count * 4 else {
                throw corrupt("the tiles are not base64 of \(count) 32-bit IDs")
            }
            tiles = bytes.withUnsafeBytes { raw in
                (0..<count).map { TileGID(rawValue: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
        }
        self.init(width: width, height: height, tiles: tiles)!  // count checked above
    }

    /// Writes the grid: its size, and its tiles into the coder's storage (their offset here), or
    /// as base64.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        var bytes = [UInt8](repeating: 0, count: tiles.count * 4)
        bytes.withUnsafeMutableBytes { raw in
            for (index, tile) in tiles.enumerated() { raw.storeBytes(of: tile.rawValue.littleEndian, toByteOffset: index * 4, as: UInt32.self) }
        }
        if let storage = encoder.userInfo[Self.binaryStorageKey] as? BinaryStorage {
            try container.encode(storage.bytes.count, forKey: .offset)
            storage.bytes += bytes
        } else {
            try container.encode(Data(bytes).base64EncodedString(), forKey: .tiles)
        }
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
