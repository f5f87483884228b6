import Foundation
import Preload
import PreloadTestSupport
import PreloadTileMap
import Testing

/// Damage fails the map with a typed error naming the file and the cause: the layer and tile
/// position of a tile no tileset has, the tileset of a tile outside its image, the layer whose
/// data is damaged or too large, the external tileset that is missing or in a loop.
@Suite struct DamagedMapTests {
    let directory: TemporaryDirectory

    /// A 32x32 image: four 16x16 tiles.
    static let image = PNGFixture.rgba(width: 32, height: 32, pixels: PNGFixture.noise(width: 32, height: 32))
    static let tileset =
        #"<tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="4" columns="2"><image source="t.png" width="32" height="32"/></tileset>"#

    init() throws {
        directory = try TemporaryDirectory("tilemap-damaged")
        try directory.write("t.png", Self.image)
    }

    /// A 2x2 map `name` with `tilesets` and `layers` (TMX text).
    func map(_ name: String = "map.tmx", tilesets: String = Self.tileset, layers: String, attributes: String = "") throws -> String {
        try directory.write(
            name,
            text: """
                <?xml version="1.0" encoding="UTF-8"?>
                <map version="1.8" orientation="orthogonal" width="2" height="2" tilewidth="16" tileheight="16"\(attributes)>
                 \(tilesets)
                 \(layers)
                </map>
                """)
    }

    /// A 2x2 layer called `ground` holding `data` (its `<data>` element).
    static func layer(_ data: String, width: Int = 2, height: Int = 2) -> String {
        #"<layer id="1" name="ground" width="\#(width)" height="\#(height)">\#(data)</layer>"#
    }

    /// Base64 of `bytes`, compressed with zlib when asked.
    static func base64(_ bytes: [UInt8], zlib: Bool = false) -> String {
        Data(zlib ? PNGFixture.deflate(bytes, level: 9) : bytes).base64EncodedString()
    }

    /// Little-endian bytes of `gids`, as layer data stores them.
    static func bytes(_ gids: [UInt32]) -> [UInt8] { gids.flatMap { gid in (0..<4).map { UInt8(truncatingIfNeeded: gid >> (8 * $0)) } } }

    /// What loading `path` failed with, as the plugin's error (and checks the report names the file).
    func failure(_ path: String, plugins: [any LoaderPlugin] = []) async throws -> TileMapError? {
        let error = try #require(try await TileMapFixtures.error(loading: path, plugins: plugins), "\(path) loaded")
        #expect(error.path == path)
        return error.underlying as? TileMapError
    }

    /// The detail of a damaged-data failure of layer `ground`, if that is what `path` failed with.
    func damage(_ path: String) async throws -> String? {
        guard case .damagedLayerData(let file, "ground", let detail)? = try await failure(path) else { return nil }
        #expect(file == path)
        return detail
    }

    @Test func aTileNoTilesetHasFailsNamingTheLayerAndPosition() async throws {
        let path = try map(layers: Self.layer(#"<data encoding="csv">1,2,9,0</data>"#))
        #expect(try await failure(path) == .unknownTile(file: path, layer: "ground", column: 0, row: 1, gid: 9))
        let error = try #require(try await TileMapFixtures.error(loading: path))
        #expect(
            error.category == .corrupt && error.reason == "layer 'ground': the tile at (0, 1) is global tile ID 9, which no tileset of the map has")
        // Between two tilesets, before the first, and flipped: the ID without its flips is named.
        let gap = try map(
            "gap.tmx",
            tilesets: Self.tileset
                + #"<tileset firstgid="10" name="u" tilewidth="16" tileheight="16" tilecount="4" columns="2"><image source="t.png"/></tileset>"#,
            layers: Self.layer(#"<data encoding="csv">10,13,2147483654,0</data>"#))
        #expect(try await failure(gap) == .unknownTile(file: gap, layer: "ground", column: 0, row: 1, gid: 0x8000_0006))
        let before = try map(
            "before.tmx", tilesets: Self.tileset.replacingOccurrences(of: "firstgid=\"1\"", with: "firstgid=\"5\""),
            layers: Self.layer(#"<data encoding="csv">0,0,0,2</data>"#))
        #expect(try await failure(before) == .unknownTile(file: before, layer: "ground", column: 1, row: 1, gid: 2))
        let object = try map(
            "object.tmx", layers: #"<objectgroup id="2" name="things"><object id="3" gid="7" x="0" y="0" width="16" height="16"/></objectgroup>"#)
        #expect(try await failure(object) == .unknownObjectTile(file: object, layer: "things", object: 3, gid: 7))
    }

    @Test func aTileOutsideItsTilesetsImageFailsNamingTheTileset() async throws {
        // The tileset declares 8 tiles; its 32x32 image holds 4 (2 columns, 2 rows): tile 6 is at (0, 48).
        let path = try map(
            tilesets: Self.tileset.replacingOccurrences(of: "tilecount=\"4\"", with: "tilecount=\"8\""),
            layers: Self.layer(#"<data encoding="csv">1,4,5,0</data>"#))
        #expect(
            try await failure(path)
                == .tileOutsideImage(
                    file: path, tileset: "t", tile: 4, rect: TileRect(x: 0, y: 32, width: 16, height: 16), imageWidth: 32, imageHeight: 32))
        // An image-collection tile whose own rectangle (Tiled 1.9) reaches past its image.
        let collection = try map(
            "collection.tmx",
            tilesets:
                #"<tileset firstgid="1" name="c" tilewidth="16" tileheight="16" tilecount="1" columns="0"><tile id="0" x="20" y="0" width="16" height="16"><image source="t.png"/></tile></tileset>"#,
            layers: Self.layer(#"<data encoding="csv">1,0,0,0</data>"#))
        #expect(
            try await failure(collection)
                == .tileOutsideImage(
                    file: collection, tileset: "c", tile: 0, rect: TileRect(x: 20, y: 0, width: 16, height: 16), imageWidth: 32, imageHeight: 32))
    }

    @Test func layersTooLargeFailBeforeAnythingIsAllocated() async throws {
        let huge = try map("huge.tmx", layers: Self.layer("", width: 100_000, height: 100_000))
        guard case .tooLarge(huge, "ground", let detail)? = try await failure(huge) else { throw Failure("\(huge) did not fail as too large") }
        #expect(detail == "100000x100000 tiles, more than the 67108864 a layer may hold")
        let wide = try map("wide.tmx", layers: Self.layer("", width: 1_000_000_000, height: 1_000_000_000))
        #expect(try await failure(wide).map { if case .tooLarge = $0 { true } else { false } } == true)
        let beyond = try map("beyond.tmx", layers: Self.layer("", width: 99_999_999_999, height: 1))
        #expect(
            try await failure(beyond)
                == .malformed(file: beyond, detail: "layer 'ground': 'width' is not a whole number of at most 1000000000: 99999999999.0"))
        let chunk = try map(
            "chunk.tmx", layers: Self.layer(#"<data encoding="csv"><chunk x="0" y="0" width="65536" height="65536">0</chunk></data>"#),
            attributes: #" infinite="1""#)
        #expect(try await failure(chunk).map { if case .tooLarge(_, "ground", _) = $0 { true } else { false } } == true)
        // Together: a layer of 2^25 tiles, then one more than that.
        let total = try map(
            "total.tmx",
            layers: Self.layer("", width: 8192, height: 4096)
                + Self.layer("", width: 8192, height: 4097).replacingOccurrences(of: "ground", with: "more"))
        #expect(
            try await failure(total)
                == .tooLarge(file: total, layer: "more", detail: "the map's layers hold more than the 67108864 tiles a map may hold"))
    }

    @Test(arguments: ["zlib", "gzip", "zstd"])
    func aDecompressionBombStopsAtTheLayersSize(_ compression: String) async throws {
        // 16 MiB of zeros, compressed, for a 4x4 layer: inflating stops after 65 bytes.
        let path = TileMapFixtures.path("damaged/\(compression).tmx")
        guard case .damagedLayerData(path, "bomb", let detail)? = try await failure(path) else { throw Failure("\(compression) bomb loaded") }
        #expect(detail.contains("to more than the layer's 64 bytes"), "\(detail)")
        let short = TileMapFixtures.path("damaged/zstd-short.tmx")
        #expect(
            try await failure(short)
                == .damagedLayerData(file: short, layer: "bomb", detail: "zstd data decompresses to 60 bytes, not the layer's 64 bytes"))
    }

    @Test func layerDataOfTheWrongSizeOrDamagedFails() async throws {
        let four = Self.bytes([1, 2, 3, 4])
        func base64(_ text: String, _ compression: String = "zlib") -> String {
            Self.layer(#"<data encoding="base64" compression="\#(compression)">\#(text)</data>"#)
        }
        var cut = PNGFixture.deflate(four, level: 9), flipped = cut
        cut.removeLast(6)
        flipped[flipped.count - 1] ^= 0xFF  // the Adler-32 checksum
        let cases: [(String, String)] = [
            (base64(Self.base64(Array(four.prefix(12)), zlib: true)), "the zlib data inflates to 12 bytes, the layer's 4 tiles need 16"),
            (base64(Self.base64(four + four, zlib: true)), "the zlib data inflates to more than the layer's 16 bytes"),
            (base64(Data(flipped).base64EncodedString()), "the zlib data is damaged (incorrect data check)"),
            (base64("AAAA$$$$AAAA"), "the data is not base64 (a character outside base64's alphabet, or its length)"),
            (
                Self.layer(#"<data encoding="base64">\#(Self.base64(Array(four.prefix(12))))</data>"#),
                "the data is 12 bytes, the layer's 4 tiles need 16"
            ),
            (Self.layer(#"<data encoding="csv">1,2,3</data>"#), "the CSV has 3 tiles, the layer 4"),
            (Self.layer(#"<data encoding="csv">1,2,3,4,1</data>"#), "the CSV has 5 tiles, the layer 4"),
            (Self.layer(#"<data encoding="csv">1,2,3,4,1,2</data>"#), "the CSV has more than the layer's 4 tiles"),
            (Self.layer(#"<data encoding="csv">1,2,3,4,</data>"#), "the CSV ends with a comma: a value is missing after it"),
            (Self.layer(#"<data encoding="csv">1,2,3,</data>"#), "the CSV ends with a comma: a value is missing after it"),
            (Self.layer(#"<data encoding="csv">1,x,3,4</data>"#), "value 2 of the CSV has 'x', which is not a digit"),
            (Self.layer(#"<data encoding="csv">1,2,3,99999999999</data>"#), "value 4 of the CSV is beyond 32 bits"),
            (Self.layer(#"<data><tile gid="1"/><tile/><tile gid="2"/></data>"#), "the data has 3 tiles, the layer 4"),
        ]
        for (index, (layer, expected)) in cases.enumerated() {
            let detail = try await damage(try map("damaged-\(index).tmx", layers: layer))
            #expect(detail == expected)
        }
        let truncated = try map("truncated.tmx", layers: base64(Data(cut).base64EncodedString()))
        #expect(try await damage(truncated)?.hasPrefix("the zlib data ends early (after ") == true)
        let json = try directory.write(
            "damaged.tmj",
            text:
                #"{"type": "map", "orientation": "orthogonal", "width": 2, "height": 2, "tilewidth": 16, "tileheight": 16, "tilesets": [], "layers": [{"type": "tilelayer", "name": "ground", "width": 2, "height": 2, "data": [0, 0, -1, 0]}]}"#
        )
        let detail = try await damage(json)
        #expect(detail == "'-1' in the data is not a global tile ID")
    }

    @Test func externalTilesetsMissingOrInALoopFailByName() async throws {
        let missing = try map(
            "missing.tmx", tilesets: #"<tileset firstgid="1" source="sets/none.tsx"/>"#, layers: Self.layer(#"<data encoding="csv">0,0,0,0</data>"#))
        guard case .missingTileset(missing, let tileset, let cause)? = try await failure(missing) else { throw Failure("no missing tileset") }
        #expect(tileset == directory.file("sets/none.tsx") && !cause.isEmpty)
        try directory.write("a.tsx", text: #"<tileset source="b.tsx"/>"#)
        try directory.write("b.tsx", text: #"<tileset source="a.tsx"/>"#)
        let loop = try map(
            "loop.tmx", tilesets: #"<tileset firstgid="1" source="a.tsx"/>"#, layers: Self.layer(#"<data encoding="csv">0,0,0,0</data>"#))
        #expect(
            try await failure(loop)
                == .tilesetLoop(file: loop, chain: [loop, directory.file("a.tsx"), directory.file("b.tsx"), directory.file("a.tsx")]))
    }

    @Test func filesThatAreNotMapsOrNotWellFormedFail() async throws {
        let atlas = try directory.write("atlas.tmj", text: #"{"frames": {}, "meta": {"image": "t.png"}}"#)
        #expect(
            try await failure(atlas) == .notATileMap(file: atlas, detail: "a JSON object without a map's keys, where a map has \"type\": \"map\""))
        let tileset = try directory.write("tileset.tmx", text: Self.tileset)
        #expect(try await failure(tileset) == .notATileMap(file: tileset, detail: "its XML root is <tileset>, where a map has <map>"))
        let binary = try directory.write("binary.tmx", [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(try await failure(binary) == .notATileMap(file: binary, detail: "neither XML (TMX) nor JSON (TMJ)"))
        let cut = try directory.write("cut.tmx", text: #"<map orientation="orthogonal" width="2"><layer"#)
        guard case .malformed(cut, let detail)? = try await failure(cut) else { throw Failure("\(cut) did not fail as malformed") }
        #expect(detail.hasPrefix("not well-formed XML (line 1"))
        let entities = try directory.write(
            "entities.tmx", text: #"<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><map orientation="orthogonal" version="&b;"/>"#
        )
        #expect(
            try await failure(entities)
                == .malformed(file: entities, detail: "not well-formed XML: it declares entities (<!ENTITY>), which are not read"))
        // Fuzz/run tilemap, 2026-11-26: bytes that are not UTF-8 in an element's name made corelibs' XMLParser trap; libxml2
        // itself refuses them.
        let notUTF8 = try directory.write(
            "latin.tmx", Array(#"<map orientation="orthogonal"><prop"#.utf8) + [0xFF, 0xFF] + Array("erty/></map>".utf8))
        guard case .malformed(notUTF8, let notUTF8Detail)? = try await failure(notUTF8) else { throw Failure("\(notUTF8) did not fail as malformed") }
        #expect(notUTF8Detail.hasPrefix("not well-formed XML (line 1): Input is not proper UTF-8"), "\(notUTF8Detail)")
        let orientation = try directory.write("diagonal.tmx", text: #"<map orientation="diagonal" width="1" height="1"/>"#)
        #expect(try await failure(orientation) == .unsupported(file: orientation, detail: "orientation 'diagonal'"))
        let lz4 = try map("lz4.tmx", layers: Self.layer(#"<data encoding="base64" compression="lz4">AAAA</data>"#))
        #expect(try await failure(lz4) == .unsupported(file: lz4, detail: "layer 'ground': compression 'lz4'"))
        let nested = try map(
            "nested.tmx", layers: String(repeating: #"<group id="1" name="g">"#, count: 65) + String(repeating: "</group>", count: 65))
        #expect(
            try await failure(nested)
                == .malformed(file: nested, detail: "layer 'g': groups are nested more than 64 deep"))
        let margin = try map(
            "margin.tmx", tilesets: Self.tileset.replacingOccurrences(of: "columns=\"2\"", with: "columns=\"2\" margin=\"-3\""), layers: "")
        #expect(try await failure(margin) == .malformed(file: margin, detail: "tileset 't': 'margin' is negative: -3"))
        let empty = try map(
            "empty-tiles.tmx", tilesets: Self.tileset.replacingOccurrences(of: "tilewidth=\"16\"", with: "tilewidth=\"0\""), layers: "")
        #expect(
            try await failure(empty)
                == .malformed(file: empty, detail: "tileset 't': its tiles are 0x16 pixels, and a tileset cut from an image needs at least 1x1"))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
