import FuzzSupport
import Preload
import PreloadFont

/// Reads the input as a bitmap font descriptor (BMFont text, XML or binary, the form told from
/// the content), checks its glyphs against pages of a made-up size, and lays out a line with the
/// font: a description or a typed error, and a layout that never reads outside the tables.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFont(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let path = FuzzInput.write(data, count, name: "input.fnt")
    guard let description = try? BitmapFontLoader.describe(path: path) else { return 0 }
    let side = 64
    guard description.problem(pageSizes: description.pages.map { _ in (width: side, height: side) }, file: path) == nil else { return 0 }
    let page = Texture(width: side, height: side, pixelFormat: .rgba8, alphaMode: .straight, pixels: [UInt8](repeating: 7, count: side * side * 4))
    let font = BitmapFont(
        format: description.format, metrics: description.metrics, pages: description.pages.map { FontPage(path: $0.path, texture: page) },
        glyphs: description.glyphs, missingGlyph: description.missingGlyph, kerningPairs: description.kerningPairs)
    let layout = font.layOut("AVA To\r\nWorld ☃ \u{10FFFF}")
    for placed in layout.glyphs {
        let glyph = placed.glyph
        precondition(glyph.width == 0 || glyph.height == 0 || glyph.page < font.pages.count, "a placed glyph with pixels is on a page the font has")
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_font_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzFont)
}
