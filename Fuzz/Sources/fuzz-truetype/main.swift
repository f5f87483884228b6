import FuzzSupport
import Preload
import PreloadFont
import PreloadTrueType

/// Rasterizes the input as a TrueType or OpenType font (or face 1 of a collection) with FreeType
/// at two small sizes, hinted and antialiased, then unhinted in one bit, for a few characters:
/// a font whose every glyph lies on its pages, or a typed error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrueType(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = AssetBytes(Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)))
    var options = TrueTypeFontLoaderSettings(pixelSize: 12, characters: "AVTo ae0.é€\u{1F600}")
    options.maxPageSize = 256
    options.maxPageBytes = 4 << 20
    options.rendersMissingCharacters = true
    var variants = [options]
    options.pixelSize = 9
    options.hinting = .off
    options.isAntialiased = false
    options.padding = 1
    options.faceIndex = bytes.starts(with: Array("ttcf".utf8)) ? 1 : 0
    variants.append(options)
    for options in variants {
        do {
            let (font, _) = try TrueTypeFontLoader.load(bytes, options: options)
            for glyph in font.glyphs + [font.missingGlyph].compactMap({ $0 }) where glyph.width > 0 {
                let page = font.pages[glyph.page].texture
                precondition(glyph.x + glyph.width <= page.width && glyph.y + glyph.height <= page.height, "a glyph lies on its page")
            }
            _ = font.layOut("AVTo\né€")
        } catch is TrueTypeFontError {
        } catch {
            preconditionFailure("an error that is not a TrueTypeFontError: \(error)")
        }
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_truetype_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzTrueType)
}
