import Foundation
import Preload

/// How a baked pack holds a Tiled map: a 16-byte header, the map's tables as JSON (every layer,
/// tileset, object and property) and which entries hold its images, then its tile grids' IDs as
/// 32-bit little-endian values (`TileGrid.BinaryStorage`: a grid's JSON names its offset), read
/// without a parse. The images are other entries, named by entry number, as an
/// atlas's pages are; loading attaches them and checks every placed tile against its tileset's
/// image again, as a loose map's load does. The layout is in docs/bake-format.md ("Map").
public enum BakedMap {
    /// The header's first four bytes.
    static let magic = Array("PMAP".utf8)
    /// The header's size.
    static let headerSize = 16

    /// What the JSON holds.
    struct Tables: Codable {
        /// An image: the entry holding its texture, and its path as the map resolved it.
        struct Image: Codable {
            var entry: Int
            var path: String
        }

        var images: [Image]
        var map: TileMap
    }

    /// The entry's bytes for `map`, its images in the entries `imageEntries` (in
    /// `TileMap.images`' order).
    public static func encode(_ map: TileMap, imageEntries: [Int]) throws -> AssetBytes {
        let tables = Tables(images: zip(map.images, imageEntries).map { Tables.Image(entry: $1, path: $0.path) }, map: map)
        let storage = TileGrid.BinaryStorage()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // the same map bakes to the same bytes
        encoder.userInfo[TileGrid.binaryStorageKey] = storage
        let json = [UInt8](try encoder.encode(tables))
        var bytes = magic + [1, 0, 0, 0]  // version 1
        bytes.appendLittleEndian(UInt32(json.count))
        bytes.appendLittleEndian(UInt32(storage.bytes.count))
        return AssetBytes(bytes + json + storage.bytes)
    }

    /// The tables of a map entry, `bytes` (already checksummed): the images to load, and the
    /// map without its textures.
    static func tables(
        of bytes: UnsafeRawBufferPointer, malformed: (String) -> any Error
    ) throws -> (images: [(entry: Int, path: String)], map: TileMap) {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else { throw malformed("not a map entry (no PMAP header)") }
        guard bytes[4] == 1 else { throw malformed("map entry version \(bytes[4]); this reader reads version 1") }
        let length = Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian)
        let tiles = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        guard bytes.count == headerSize + length + tiles else {
            throw malformed("a map entry of \(bytes.count) bytes does not hold what its header counts")
        }
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[TileGrid.binaryStorageKey] = TileGrid.BinaryStorage(bytes: Array(bytes[(headerSize + length)...]))
            let tables = try decoder.decode(Tables.self, from: Data(bytes[headerSize..<headerSize + length]))
            return (tables.images.map { ($0.entry, $0.path) }, tables.map)
        } catch {
            throw malformed("its map tables do not read: \(error)")
        }
    }
}
