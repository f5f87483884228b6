/// What the first bytes of a Tiled map look like, for files no extension gives the plugin
/// (a map saved as `.json`, as Phaser projects name them; a TMX saved as `.xml`).
enum TileMapSignature {
    /// Whether `header` (a file's first bytes) starts a Tiled map: JSON with Tiled's own key
    /// `tiledversion`, or with `layers` and `orientation` (or `infinite`, which Tiled writes just
    /// before `layers` while `orientation` comes after them, alphabetically); or XML whose root is
    /// `<map>`. Other JSON (an atlas, a level's data) is left alone.
    static func matches(_ header: [UInt8]) -> Bool {
        let first = header.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let text = String(decoding: header, as: UTF8.self)
        switch first {
        case UInt8(ascii: "{"):
            return text.contains("\"tiledversion\"")
                || (text.contains("\"layers\"") && (text.contains("\"orientation\"") || text.contains("\"infinite\"")))
        case UInt8(ascii: "<"):
            return ["<map ", "<map>", "<map\n", "<map\r", "<map\t"].contains { text.contains($0) }
        default:
            return false
        }
    }
}
