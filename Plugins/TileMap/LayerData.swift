import Foundation

/// A tile layer's (or chunk's) data as its file stores it, before decoding: numbers already read
/// (TMX's `<tile gid>` elements, a TMJ's array), or text (CSV, a TMJ's array of tile IDs as its
/// text, or base64).
enum LayerData {
    /// Global tile IDs as numbers, one per tile.
    case gids([UInt32])
    /// CSV text: one decimal global tile ID per tile, separated by commas.
    case csv(String)
    /// The text between the brackets of a JSON array of tile IDs (``JSONTileArrays``): read as CSV is.
    case jsonArray(String)
    /// Base64 text of little-endian 32-bit global tile IDs, compressed or not.
    case base64(String, LayerCompression)

    /// The `count` tiles the data holds.
    /// - Throws: ``LayerDataProblem`` for data that is not what it says or holds another number
    ///   of tiles; ``MissingSystemLibrary`` for zstd data without libzstd.
    func tiles(count: Int) throws -> [TileGID] {
        switch self {
        case .gids(let gids):
            guard gids.count == count else { throw LayerDataProblem("the data has \(gids.count) tiles, the layer \(count)") }
            return gids.map(TileGID.init(rawValue:))
        case .csv(let text): return try Self.csv(text, count: count, name: "the CSV")
        case .jsonArray(let text): return try Self.csv(text, count: count, name: "the data")
        case .base64(let text, let compression):
            let bytes = try Self.base64(text)
            // Decompressed straight into the tiles' memory (and one tile more: room to notice more data).
            var tiles = try [TileGID](unsafeUninitializedCapacity: count + 1) { buffer, initialized in
                try bytes.withUnsafeBytes { input in
                    try compression.decompress(input, into: UnsafeMutableRawBufferPointer(start: buffer.baseAddress, count: count * 4 + 1))
                }
                initialized = count
            }
            if UInt32(littleEndian: 1) != 1 {
                for index in tiles.indices { tiles[index] = TileGID(rawValue: UInt32(littleEndian: tiles[index].rawValue)) }
            }
            return tiles
        }
    }

    /// CSV as Tiled reads it: decimal numbers separated by commas, white space anywhere between
    /// digits ignored, an empty cell empty (0); a value missing after the last comma, anything
    /// but digits, a number beyond 32 bits or another count than `count` is damage. `name` is
    /// what the data is called in errors.
    static func csv(_ text: String, count: Int, name: String) throws -> [TileGID] {
        var text = text
        return try text.withUTF8 { bytes in
            try [TileGID](unsafeUninitializedCapacity: count) { tiles, initialized in
                var written = 0, value: UInt64 = 0
                var hasDigits = false, sawAnything = false
                for byte in bytes {
                    let digit = byte &- UInt8(ascii: "0")
                    if digit < 10 {
                        value = value &* 10 &+ UInt64(digit)  // at most 2^32 * 10 + 9: no overflow
                        guard value <= UInt64(UInt32.max) else { throw LayerDataProblem("value \(written + 1) of \(name) is beyond 32 bits") }
                        (hasDigits, sawAnything) = (true, true)
                    } else if byte == UInt8(ascii: ",") {
                        guard written < count else { throw LayerDataProblem("\(name) has more than the layer's \(count) tiles") }
                        tiles[written] = TileGID(rawValue: UInt32(truncatingIfNeeded: value))
                        written += 1
                        (value, hasDigits, sawAnything) = (0, false, true)
                    } else if byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 {
                        let shown = byte < 0x80 ? String(UnicodeScalar(byte)) : String(format: "0x%02X", byte)
                        throw LayerDataProblem("value \(written + 1) of \(name) has '\(shown)', which is not a digit")
                    }
                }
                if sawAnything {
                    guard hasDigits else { throw LayerDataProblem("\(name) ends with a comma: a value is missing after it") }
                    guard written < count else { throw LayerDataProblem("\(name) has \(written + 1) tiles, the layer \(count)") }
                    tiles[written] = TileGID(rawValue: UInt32(truncatingIfNeeded: value))
                    written += 1
                }
                guard written == count else { throw LayerDataProblem("\(name) has \(written) tiles, the layer \(count)") }
                initialized = written
            }
        }
    }

    /// Base64 text decoded, white space (line breaks, indentation) ignored and missing `=`
    /// padding forgiven; any other character is damage.
    static func base64(_ text: String) throws(LayerDataProblem) -> Data {
        var text = text
        let cleaned = text.withUTF8 { bytes in
            var cleaned = [UInt8](repeating: UInt8(ascii: "="), count: bytes.count + 3)
            var length = 0
            for byte in bytes where byte > 0x20 || (byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09) {
                cleaned[length] = byte
                length += 1
            }
            return Data(cleaned.prefix((length + 3) / 4 * 4))  // padded with the "=" already there
        }
        guard let data = Data(base64Encoded: cleaned) else {
            throw LayerDataProblem("the data is not base64 (a character outside base64's alphabet, or its length)")
        }
        return data
    }
}
