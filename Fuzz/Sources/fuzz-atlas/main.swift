import FuzzSupport
import Preload
import PreloadAtlas
import PreloadAuthoring

/// Reads the input as an atlas descriptor (TexturePacker JSON, Phaser, libGDX text, SpriteKit plist), the
/// dialect told from the content, checks it as `preload atlas check` does and against pages of
/// a made-up size, and turns every frame back into its upright image (what `preload --checksum`
/// and `SpriteAtlas.textureNamed` do), which must refuse frames that do not fit rather than trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAtlas(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    // The same bytes as a descriptor file and as a compiled SpriteKit atlas's property list.
    let path = FuzzInput.write(data, count, name: "input.atlas")
    let compiled = FuzzInput.write(data, count, name: "sheet.atlasc/sheet.plist")
    for path in [path, String(compiled.dropLast("/sheet.plist".count))] { exercise(path) }
    return 0
}

func exercise(_ path: String) {
    guard let description = try? AtlasLoader.describe(path: path) else { return }
    _ = try? AtlasCheck.check(path: path)  // also reports overlaps, over every frame
    let side = 64
    _ = description.problems(pageSizes: description.pages.map { _ in (width: side, height: side) })
    let page = Texture(width: side, height: side, pixelFormat: .rgba8, alphaMode: .straight, pixels: [UInt8](repeating: 7, count: side * side * 4))
    let atlas = TextureAtlas(
        format: description.format, pages: description.pages.map { AtlasPage(path: $0.path, texture: page) },
        frames: description.frames, scale: description.scale)
    for frame in atlas.frames {
        _ = atlas.textureCoordinates(of: frame)
        _ = try? atlas.image(of: frame)
    }
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_atlas_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzAtlas)
}
