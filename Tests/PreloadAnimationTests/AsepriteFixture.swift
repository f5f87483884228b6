import PreloadZlib

/// Aseprite files written from the public specification (`docs/ase-file-specs.md`), chunk by
/// chunk, so that tests know every byte they load.
struct AsepriteFixture {
    /// One frame: its duration and its chunks (each already framed by ``chunk(_:_:)``).
    struct Frame {
        var duration: Int
        var chunks: [[UInt8]]
    }

    var width: Int
    var height: Int
    /// 32 RGBA, 16 grayscale, 8 indexed.
    var depth: Int = 32
    /// Header flags: 1, layer opacity is valid.
    var flags: UInt32 = 1
    var transparentIndex: UInt8 = 0
    var frames: [Frame] = []
    /// The frame count the header states; the frames' count unless set.
    var statedFrameCount: Int?

    /// The file's bytes.
    var bytes: [UInt8] {
        var body = [UInt8]()
        for frame in frames {
            let chunks = frame.chunks.flatMap { $0 }
            var header = Self.dword(16 + chunks.count) + Self.word(0xF1FA)
            header += Self.word(min(frame.chunks.count, 0xFFFF)) + Self.word(frame.duration) + [0, 0] + Self.dword(frame.chunks.count)
            body += header + chunks
        }
        var header = Self.dword(128 + body.count) + Self.word(0xA5E0) + Self.word(statedFrameCount ?? frames.count)
        header += Self.word(width) + Self.word(height) + Self.word(depth) + Self.dword(Int(flags)) + Self.word(100) + Self.dword(0) + Self.dword(0)
        header += [transparentIndex, 0, 0, 0] + Self.word(256) + [1, 1] + Self.word(0) + Self.word(0) + Self.word(16) + Self.word(16)
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return header + body
    }

    static func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    static func dword(_ value: Int) -> [UInt8] { word(value & 0xFFFF) + word((value >> 16) & 0xFFFF) }
    static func string(_ text: String) -> [UInt8] { word(text.utf8.count) + Array(text.utf8) }

    /// A chunk: its size (with the 6-byte head), its type, its data.
    static func chunk(_ type: Int, _ data: [UInt8]) -> [UInt8] { dword(6 + data.count) + word(type) + data }

    /// A layer chunk (0x2004): flags 1 visible, 8 background, 64 reference; type 0 image, 1 group, 2 tilemap.
    static func layer(
        _ name: String, flags: Int = 1, type: Int = 0, childLevel: Int = 0, blendMode: Int = 0, opacity: Int = 255, tileset: Int = 0
    ) -> [UInt8] {
        var data = word(flags) + word(type) + word(childLevel) + word(0) + word(0) + word(blendMode) + [UInt8(opacity), 0, 0, 0] + string(name)
        if type == 2 { data += dword(tileset) }
        return chunk(0x2004, data)
    }

    /// A tileset chunk (0x2023): flags 1 external, 2 tiles inside (`tiles`, `count` tiles of
    /// `width`x`height` pixels one under the other, through zlib, or `stored` as the compressed
    /// bytes, with `length` as its stated length), 4 tile ID 0 is empty.
    static func tileset(
        id: Int = 0, flags: Int = 2 | 4, count: Int, width: Int, height: Int, name: String = "tiles", tiles: [UInt8] = [],
        stored: [UInt8]? = nil, length: Int? = nil
    ) throws -> [UInt8] {
        var data = dword(id) + dword(flags) + dword(count) + word(width) + word(height) + word(1) + [UInt8](repeating: 0, count: 14)
        data += string(name)
        if flags & 1 != 0 { data += dword(0) + dword(0) }
        if flags & 2 != 0, count > 0 {
            let compressed = try stored ?? Zlib.compress(tiles, level: 9)
            data += dword(length ?? compressed.count) + compressed
        }
        return chunk(0x2023, data)
    }

    /// A compressed tilemap cel (type 3) of `width`x`height` 32-bit tiles with Aseprite's masks
    /// (ID 0x1fffffff, x flip 0x80000000, y flip 0x40000000, diagonal 0x20000000), or `stored`
    /// as the compressed tiles.
    static func tilemapCel(
        layer: Int, x: Int = 0, y: Int = 0, opacity: Int = 255, zIndex: Int = 0, width: Int, height: Int, tiles: [UInt32], bits: Int = 32,
        stored: [UInt8]? = nil
    ) throws -> [UInt8] {
        let compressed = try stored ?? Zlib.compress(tiles.flatMap { dword(Int($0)) }, level: 9)
        var data = celHead(layer: layer, x: x, y: y, opacity: opacity, type: 3, zIndex: zIndex) + word(width) + word(height) + word(bits)
        data += dword(0x1fff_ffff) + dword(0x8000_0000) + dword(0x4000_0000) + dword(0x2000_0000) + [UInt8](repeating: 0, count: 10)
        return chunk(0x2005, data + compressed)
    }

    private static func celHead(layer: Int, x: Int, y: Int, opacity: Int, type: Int, zIndex: Int) -> [UInt8] {
        word(layer) + word(x & 0xFFFF) + word(y & 0xFFFF) + [UInt8(opacity)] + word(type) + word(zIndex & 0xFFFF) + [0, 0, 0, 0, 0]
    }

    /// A raw cel (type 0).
    static func rawCel(layer: Int, x: Int = 0, y: Int = 0, opacity: Int = 255, zIndex: Int = 0, width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
        chunk(0x2005, celHead(layer: layer, x: x, y: y, opacity: opacity, type: 0, zIndex: zIndex) + word(width) + word(height) + pixels)
    }

    /// A compressed cel (type 2): `pixels` through zlib, or `stored` as the compressed bytes.
    static func compressedCel(
        layer: Int, x: Int = 0, y: Int = 0, opacity: Int = 255, width: Int, height: Int, pixels: [UInt8], stored: [UInt8]? = nil
    ) throws -> [UInt8] {
        let compressed = try stored ?? Zlib.compress(pixels, level: 9)
        return chunk(0x2005, celHead(layer: layer, x: x, y: y, opacity: opacity, type: 2, zIndex: 0) + word(width) + word(height) + compressed)
    }

    /// A linked cel (type 1) showing frame `frame`'s cel on the same layer.
    static func linkedCel(layer: Int, frame: Int) -> [UInt8] {
        chunk(0x2005, celHead(layer: layer, x: 0, y: 0, opacity: 255, type: 1, zIndex: 0) + word(frame))
    }

    /// A palette chunk (0x2019) setting entries from `first` on.
    static func palette(_ colors: [[UInt8]], first: Int = 0) -> [UInt8] {
        var data = dword(first + colors.count) + dword(first) + dword(first + colors.count - 1) + [UInt8](repeating: 0, count: 8)
        for color in colors { data += word(0) + color }
        return chunk(0x2019, data)
    }

    /// An old palette chunk (0x0004): one packet of RGB colours from entry 0.
    static func oldPalette(_ colors: [[UInt8]]) -> [UInt8] {
        chunk(0x0004, word(1) + [0, UInt8(colors.count)] + colors.flatMap { $0 })
    }

    /// A tags chunk (0x2018), each tag's colour (Aseprite 1.2's field) `color`.
    static func tags(_ tags: [(name: String, from: Int, to: Int, direction: Int, repeatCount: Int)], color: [UInt8] = [0, 0, 0]) -> [UInt8] {
        var data = word(tags.count) + [UInt8](repeating: 0, count: 8)
        for tag in tags {
            data += word(tag.from) + word(tag.to) + [UInt8(tag.direction)] + word(tag.repeatCount) + [UInt8](repeating: 0, count: 6)
            data += color + [0] + string(tag.name)
        }
        return chunk(0x2018, data)
    }

    /// A slice chunk (0x2022): each key is its frame, x, y, width and height, then the centre's
    /// x, y, width and height when `flags` has 1, then the pivot's x and y when it has 2.
    static func slice(_ name: String, flags: Int = 0, keys: [[Int]], statedKeyCount: Int? = nil) -> [UInt8] {
        chunk(0x2022, dword(statedKeyCount ?? keys.count) + dword(flags) + dword(0) + string(name) + keys.flatMap { $0.flatMap(dword) })
    }

    /// A user data chunk (0x2020): flag 1 with `text`, 2 with `color`, 4 with `properties`
    /// (the maps' bytes after their size field, see ``propertiesMaps(_:)``), its size stated
    /// as `statedPropertiesSize` when given.
    static func userData(text: String? = nil, color: [UInt8]? = nil, properties: [UInt8]? = nil, statedPropertiesSize: Int? = nil) -> [UInt8] {
        let flags = (text == nil ? 0 : 1) | (color == nil ? 0 : 2) | (properties == nil ? 0 : 4)
        var data = dword(flags) + (text.map(string) ?? []) + (color ?? [])
        if let properties { data += dword(statedPropertiesSize ?? 4 + properties.count) + properties }
        return chunk(0x2020, data)
    }

    /// Properties maps: their count, then each map's key (0 the user's, else an external
    /// files entry's id), property count and properties (see ``property(_:_:_:)``).
    static func propertiesMaps(_ maps: [(key: Int, properties: [[UInt8]])]) -> [UInt8] {
        dword(maps.count) + maps.flatMap { dword($0.key) + dword($0.properties.count) + $0.properties.flatMap { $0 } }
    }

    /// One property: its name, type and value's bytes.
    static func property(_ name: String, _ type: Int, _ value: [UInt8]) -> [UInt8] { string(name) + word(type) + value }

    /// An external files chunk (0x2008) of `entries` (id, type 2: an extension's name).
    static func externalFiles(_ entries: [(id: Int, name: String)]) -> [UInt8] {
        chunk(
            0x2008,
            dword(entries.count) + [UInt8](repeating: 0, count: 8)
                + entries.flatMap { dword($0.id) + [2] + [UInt8](repeating: 0, count: 7) + string($0.name) })
    }

    /// The RGBA sprite the tests check to the bit: 3x1, two layers (the top one at opacity 128),
    /// a raw and a compressed cel in frame 1, a linked cel and a cel at opacity 128 in frame 2
    /// (100 ms, then 150 ms), tags `all` (ping-pong) and `second` (once).
    static func twoLayers() throws -> AsepriteFixture {
        var file = AsepriteFixture(width: 3, height: 1)
        file.frames = [
            Frame(
                duration: 100,
                chunks: [
                    layer("bottom"), layer("top", opacity: 128),
                    tags([("all", 0, 1, 2, 0), ("second", 1, 1, 0, 1)]),
                    rawCel(layer: 0, width: 2, height: 1, pixels: [200, 100, 50, 255, 255, 0, 0, 128]),
                    try compressedCel(layer: 1, width: 3, height: 1, pixels: [0, 0, 255, 255, 0, 255, 0, 128, 9, 8, 7, 200]),
                ]),
            Frame(
                duration: 150,
                chunks: [linkedCel(layer: 0, frame: 0), rawCel(layer: 1, x: 2, opacity: 128, width: 1, height: 1, pixels: [10, 20, 30, 255])]),
        ]
        return file
    }
}
