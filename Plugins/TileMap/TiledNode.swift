import Preload

/// One object of a Tiled file, a TMX/TSX element or a TMJ/TSJ JSON object, asked the same
/// questions: so one reader (``TileMapReader``) reads both formats, and a map and its JSON export
/// cannot drift apart by being read twice. Attributes and keys share their names in both
/// formats; what is shaped differently (children, arrays, layer data) each format answers its way.
protocol TiledNode {
    /// The file the node is in, for errors.
    var file: String { get }
    /// Where it is in the file, for errors (`layer 'ground'`); empty for the top.
    var place: String { get }
    /// The same node, described as `place` in errors.
    func at(_ place: String) -> Self

    /// The value of `key` as text; `nil` when absent.
    func string(_ key: String) throws -> String?
    /// The value of `key` as a number; `nil` when absent. Throws when it is not a number.
    func number(_ key: String) throws -> Double?
    /// The value of `key` as a flag (`1`/`0` in TMX, `true`/`false` in JSON); `nil` when absent.
    func flag(_ key: String) throws -> Bool?

    /// Its custom properties (`<properties>`, `"properties"`).
    func properties() throws -> TiledProperties
    /// The nodes listed under `key` in JSON, or its child elements called `element` in XML
    /// (`"tilesets"` or `<tileset>`, `"tiles"` or `<tile>`, `"objects"` or `<object>`).
    func list(_ key: String, element: String) throws -> [Self]
    /// The nested object `key` in JSON, or the child element `key` in XML (`tileoffset`,
    /// a tile's `objectgroup`).
    func child(_ key: String) throws -> Self?
    /// A tile's animation frames (`"animation"`, or `<animation>`'s `<frame>`s).
    func animationFrames() throws -> [Self]
    /// Its layers in order, each with its kind (`tilelayer`, `objectgroup`, `imagelayer`, `group`).
    func layers() throws -> [(kind: String, node: Self)]
    /// Its image as a node with the keys `source`, `width`, `height` and `trans`, TMX's `<image>`'s
    /// (JSON's `image`, `imagewidth`, `imageheight`, `transparentcolor`); `nil` for none.
    func image() throws -> Self?
    /// A tile layer's data: its encoding, and the data of the layer or of each of its chunks.
    func layerData() throws -> (encoding: String, compression: String, data: LayerData?, chunks: [(node: Self, data: LayerData)])
    /// Whether the object is marked with `marker` (`<ellipse/>`, `"ellipse": true`).
    func isMarked(_ marker: String) throws -> Bool
    /// The points of a polygon or polyline object (`key`: `polygon`, `polyline`), relative to it.
    func points(_ key: String) throws -> [SIMD2<Double>]?
    /// A text object's `<text>` (JSON's `"text"` object) and its text.
    func text() throws -> (node: Self, content: String)?
}

extension TiledNode {
    /// The largest magnitude a number read as an integer may have: far past any real map, and
    /// small enough that sums and products of a few of them cannot overflow.
    static var largestNumber: Int { 1_000_000_000 }

    /// The malformed-file error for `detail` at this node.
    func problem(_ detail: String) -> TileMapError {
        .malformed(file: file, detail: place.isEmpty ? detail : "\(place): \(detail)")
    }

    /// The whole number at `key` (within ±10^9); `nil` when absent.
    func int(_ key: String) throws -> Int? {
        guard let number = try number(key) else { return nil }
        guard number.rounded() == number, abs(number) <= Double(Self.largestNumber) else {
            throw problem("'\(key)' is not a whole number of at most \(Self.largestNumber): \(number)")
        }
        return Int(number)
    }

    /// The whole number at `key`, or `fallback` when absent.
    func int(_ key: String, default fallback: Int) throws -> Int { try int(key) ?? fallback }

    /// The whole number at `key`, at least 0 (`fallback` when absent).
    func count(_ key: String, default fallback: Int = 0) throws -> Int {
        let value = try int(key, default: fallback)
        guard value >= 0 else { throw problem("'\(key)' is negative: \(value)") }
        return value
    }

    /// The finite number at `key`, or `fallback` when absent.
    func double(_ key: String, default fallback: Double) throws -> Double {
        guard let number = try number(key) else { return fallback }
        guard number.isFinite, abs(number) <= 1e15 else { throw problem("'\(key)' is out of range: \(number)") }
        return number
    }

    /// The flag at `key`, or `fallback` when absent.
    func bool(_ key: String, default fallback: Bool) throws -> Bool { try flag(key) ?? fallback }

    /// The text at `key`, or `fallback` when absent.
    func string(_ key: String, default fallback: String) throws -> String { try string(key) ?? fallback }

    /// A global tile ID with its flip bits (0 to 2^32 - 1) at `key`; `nil` when absent.
    func gid(_ key: String) throws -> TileGID? {
        guard let number = try number(key) else { return nil }
        guard number.rounded() == number, number >= 0, number <= Double(UInt32.max) else {
            throw problem("'\(key)' is not a global tile ID: \(number)")
        }
        return TileGID(rawValue: UInt32(number))
    }

    /// The value at `key` as one of `Value`'s raw values, or `fallback` when absent.
    func choice<Value: RawRepresentable<String>>(_ key: String, default fallback: Value) throws -> Value {
        guard let text = try string(key), !text.isEmpty else { return fallback }
        guard let value = Value(rawValue: text) else { throw problem("'\(key)' is '\(text)', which is none of the values Tiled writes") }
        return value
    }

    /// The colour at `key`; a value that is not a colour is noted in `warnings` and ignored, as
    /// Tiled ignores it.
    func color(_ key: String, warnings: inout [AssetWarning]) throws -> TiledColor? {
        guard let text = try string(key), !text.isEmpty else { return nil }
        guard let color = TiledColor(parsing: text) else {
            let message = "\(place.isEmpty ? "" : "\(place): ")'\(key)' is '\(text)', which is not a colour; ignored"
            warnings.append(AssetWarning(.tilemapInvalidColor, message))
            return nil
        }
        return color
    }
}
