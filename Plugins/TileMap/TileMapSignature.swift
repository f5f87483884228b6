import Preload
import PreloadXML

/// What a Tiled map's content looks like, for files no extension gives the plugin (a map saved
/// as `.json`, as Phaser and melonJS projects name them; a TMX saved as `.xml`).
enum TileMapSignature {
    /// The most bytes of a JSON file read to tell whether it is a map: Tiled writes its keys
    /// sorted, so `orientation` and `tiledversion` come after the whole `layers` array.
    static let reach = 16 << 20

    /// Whether `prefix` (a file's first bytes) is a Tiled map's: XML whose root is `<map>`; or a
    /// JSON object whose top-level keys (``JSONMembers``: nested values are skipped, not built)
    /// include `layers` and `orientation` or `tiledversion`, in any order.
    /// ``SignatureMatch/undecided`` when the prefix ends before that is told. A JSON object whose
    /// first key is none of a Tiled map's (an atlas's `frames`), or whose `type` is another
    /// (`tileset`: a tileset is read as part of its map), is not a map: told at once, so that
    /// other JSON costs its header alone.
    static func match(_ prefix: [UInt8]) -> SignatureMatch {
        let first = prefix.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        switch first {
        case UInt8(ascii: "{"):
            return jsonMatch(prefix)
        case UInt8(ascii: "<"):
            guard let root = XMLRootElement.name(in: prefix) else { return .undecided }
            return root == "map" ? .matches : .differs
        default:
            return .differs
        }
    }

    /// The keys Tiled writes at a JSON map's top level (and `propertytypes`, from Tiled 1.1 and
    /// before).
    static let mapKeys: Set<String> = [
        "backgroundcolor", "class", "compressionlevel", "editorsettings", "height", "hexsidelength", "infinite", "layers", "nextlayerid",
        "nextobjectid", "orientation", "parallaxoriginx", "parallaxoriginy", "properties", "propertytypes", "renderorder", "staggeraxis",
        "staggerindex", "tiledversion", "tileheight", "tilesets", "tilewidth", "type", "version", "width",
    ]

    private static func jsonMatch(_ prefix: [UInt8]) -> SignatureMatch {
        guard var members = JSONMembers(prefix) else { return .differs }
        var hasLayers = false
        var isTiled = false
        var sawMapKey = false
        while let key = members.nextKey() {
            switch key {
            case "layers":
                hasLayers = true
            case "orientation", "tiledversion":
                isTiled = true
            case "type":
                if let type = members.stringValue(), type != "map" { return .differs }
            default:
                // Another format's first key: not a map, without reading on.
                if !sawMapKey && !mapKeys.contains(key) { return .differs }
            }
            sawMapKey = true
            if hasLayers && isTiled { return .matches }
        }
        return members.ranOut ? .undecided : .differs
    }
}
