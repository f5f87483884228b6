import FuzzSupport
import Preload
import PreloadTileMap

/// Reads the input as a Tiled map (TMX or TMJ, told from its content; `terrain.tsx` beside it) and as the external tileset
/// (TSX or TSJ) of a small map, puts made-up textures in place of its images (the size each image
/// declares, up to 64x64, else 40x24), checks its placed tiles as a load does, and resolves every
/// placed tile; and reads it as a CSV grid both ways. A map or a typed error, never a trap, a
/// hang, or an allocation beyond the map's limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTileMap(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let tileset = Array(terrain.utf8).withUnsafeBufferPointer { FuzzInput.write($0.baseAddress, $0.count, name: "terrain.tsx") }
    let input = FuzzInput.write(data, count, name: "input.tmx")
    precondition(AssetPath.directory(of: tileset) == AssetPath.directory(of: input))
    exercise(input)
    let user = Array(tilesetUser.utf8).withUnsafeBufferPointer { FuzzInput.write($0.baseAddress, $0.count, name: "map.tmx") }
    exercise(user)
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    for numbering in [TileMapLoaderSettings.Numbering.tileIndexes, .globalIDs] {
        _ = try? TileMapLoaderSettings(tileWidth: 16, numbering: numbering).map(csv: bytes, layerName: "csv", file: "input.csv")
    }
    return 0
}

/// The external tileset the test fixtures name (`terrain.tsx`), beside the input, so that they
/// read whole (their images are made up).
let terrain = """
    <tileset name="terrain" tilewidth="8" tileheight="8" tilecount="8">
     <tileoffset x="2" y="-3"/>
     <image source="terrain.png" width="32" height="16"/>
     <tile id="5" type="Water" probability="0.5"><properties><property name="speed" type="float" value="0.25"/></properties></tile>
    </tileset>
    """

/// A map whose only tileset is the input, read as an external tileset.
let tilesetUser = """
    <map orientation="orthogonal" width="2" height="2" tilewidth="16" tileheight="16">
     <tileset firstgid="1" source="input.tmx"/>
     <layer id="1" name="l" width="2" height="2"><data encoding="csv">1,2,3,2147483652</data></layer>
    </map>
    """

func exercise(_ path: String) {
    guard let described = try? TileMapLoader.describe(path: path) else { return }
    var textures: [SIMD2<Int>: Texture] = [:]  // made up once per size
    let loaded = try? described.withTextures(file: path) { image in
        let declared = described.images.first { $0.path == image }.map { SIMD2($0.width, $0.height) } ?? .zero
        let size = declared.x > 0 && declared.y > 0 && declared.x <= 64 && declared.y <= 64 ? declared : SIMD2(40, 24)
        if let texture = textures[size] { return texture }
        let texture = Texture(
            width: size.x, height: size.y, pixelFormat: .rgba8, alphaMode: .straight, pixels: [UInt8](repeating: 9, count: size.x * size.y * 4))
        textures[size] = texture
        return texture
    }
    for (map, isLoaded) in [(described, false), (loaded?.map, true)] {
        guard let map else { continue }
        _ = "\(map)"
        _ = map.byteCount
        for layer in map.allLayers {
            for placed in layer.tiles?.placedTiles ?? [] {
                let tile = map.tile(for: placed.tile)
                if isLoaded {  // a loaded map places only tiles that resolve inside their images
                    precondition(tile.map { $0.rect.isInside(width: $0.image.width, height: $0.image.height) } == true, "\(placed)")
                }
                _ = tile?.rect.textureCoordinates(imageWidth: tile?.image.width ?? 0, imageHeight: tile?.image.height ?? 0)
            }
        }
    }
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_tilemap_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzTileMap)
}
