import Foundation

/// A tile layer's (or chunk's) data as its file stores it, before decoding: numbers already read
/// (TMX's `<tile gid>` elements, a TMJ's array), or text (CSV or base64).
enum LayerData {
    /// Global tile IDs as numbers, one per tile.
    case gids([UInt32])
    /// CSV text: one decimal global tile ID per tile, separated by commas.
    case csv(String)
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
        case .csv(let text):
            return try Self.csv(text, count: count)
        case .base64(let text, let compression):
            let bytes = try compression.decompress(try Self.base64(text), expected: count * 4)
            return bytes.withUnsafeBytes { raw in
                (0..<count).map { TileGID(rawValue: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
        }
    }

    /// CSV as Tiled reads it: decimal numbers separated by commas, white space anywhere between
    /// digits ignored, an empty cell empty (0); a value missing after the last comma, anything
    /// but digits, a number beyond 32 bits or another count than `count` is damage.
    static func csv(_ text: String, count: Int) throws(LayerDataProblem) -> [TileGID] {
        var tiles: [TileGID] = []
        tiles.reserveCapacity(count)
        var value: UInt64 = 0
        var hasDigits = false, sawAnything = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
                guard value <= UInt64(UInt32.max) else { throw LayerDataProblem("CSV value \(tiles.count + 1) is beyond 32 bits") }
                hasDigits = true
            case UInt8(ascii: ","):
                guard tiles.count < count else { throw LayerDataProblem("the CSV has more than the layer's \(count) tiles") }
                tiles.append(TileGID(rawValue: UInt32(value)))
                (value, hasDigits) = (0, false)
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            default:
                let shown = byte < 0x80 ? String(UnicodeScalar(byte)) : String(format: "0x%02X", byte)
                throw LayerDataProblem("CSV value \(tiles.count + 1) has '\(shown)', which is not a digit")
            }
            sawAnything = true
        }
        if sawAnything {
            guard hasDigits else { throw LayerDataProblem("the CSV ends with a comma: a value is missing after it") }
            tiles.append(TileGID(rawValue: UInt32(value)))
        }
        guard tiles.count == count else { throw LayerDataProblem("the CSV has \(tiles.count) tiles, the layer \(count)") }
        return tiles
    }

    /// Base64 text decoded, white space (line breaks, indentation) ignored and missing `=`
    /// padding forgiven; any other character is damage.
    static func base64(_ text: String) throws(LayerDataProblem) -> [UInt8] {
        var cleaned = Array(text.utf8.lazy.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })
        if cleaned.count % 4 != 0 { cleaned += Array(repeating: UInt8(ascii: "="), count: 4 - cleaned.count % 4) }
        guard let data = Data(base64Encoded: Data(cleaned)) else {
            throw LayerDataProblem("the data is not base64 (a character outside base64's alphabet, or its length)")
        }
        return [UInt8](data)
    }
}
