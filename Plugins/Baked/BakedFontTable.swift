import Foundation
import Preload
import PreloadFont

/// A bitmap font entry's data in a baked pack: its metrics, glyphs and kerning as JSON, its pages
/// referring to other entries of the pack by position (as an atlas's do). A glyph is ten numbers
/// in `BitmapGlyph`'s order, a kerning pair three: a font of thousands of glyphs stays compact.
///
/// ```json
/// {"format":"bmfont-text","metrics":{"face":"Pixel","size":8,"lineHeight":9,"base":7,...},
///  "pages":[{"entry":3,"path":"fonts/pixel_0.png"}],
///  "glyphs":[[65,0,0,5,7,0,1,6,0,15]],"missingGlyph":null,"kerning":[[65,86,-1]]}
/// ```
public struct BakedFontTable: Codable, Sendable, Equatable {
    /// A page: the entry holding its texture, and the page's path as the font named it.
    public struct Page: Codable, Sendable, Equatable {
        /// The position in the pack's index of the entry holding the page's texture.
        public var entry: Int
        /// The page's path as the font named it (`FontPage.path`).
        public var path: String
    }

    /// `BitmapFont.Format`'s raw value.
    public var format: String
    /// The font's metrics, field for field.
    public var metrics: FontMetrics
    /// The pages, by index.
    public var pages: [Page]
    /// Each glyph: id, x, y, width, height, x offset, y offset, x advance, page, channels.
    public var glyphs: [[Int64]]
    /// The missing-character glyph, in the same ten numbers, if the font has one.
    public var missingGlyph: [Int64]?
    /// Each kerning pair: first, second, amount.
    public var kerning: [[Int64]]

    /// The table for `font`, its pages in the entries `pageEntries` (in page order).
    public init(_ font: BitmapFont, pageEntries: [Int]) {
        format = font.format.rawValue
        metrics = font.metrics
        pages = zip(font.pages, pageEntries).map { Page(entry: $1, path: $0.path) }
        glyphs = font.glyphs.map(Self.numbers)
        missingGlyph = font.missingGlyph.map(Self.numbers)
        kerning = font.kerningPairs.map { [$0.first, $0.second, Int64($0.amount)] }
    }

    private static func numbers(_ glyph: BitmapGlyph) -> [Int64] {
        [glyph.id] + [glyph.x, glyph.y, glyph.width, glyph.height, glyph.xOffset, glyph.yOffset, glyph.xAdvance, glyph.page].map(Int64.init)
            + [Int64(glyph.channels.rawValue)]
    }

    /// The font this table describes, with `pages` (the page textures, in page order); throws
    /// why the table cannot be one (an unknown format, a glyph not inside its page, ...).
    public func font(pages textures: [FontPage]) throws(BakedPackError) -> BitmapFont {
        guard let format = BitmapFont.Format(rawValue: format) else { throw .malformed("unknown font format '\(self.format)'") }
        let glyphs = try self.glyphs.map { numbers throws(BakedPackError) in try Self.glyph(numbers, pages: textures) }
        let missing = try missingGlyph.map { numbers throws(BakedPackError) in try Self.glyph(numbers, pages: textures) }
        let pairs = try kerning.map { numbers throws(BakedPackError) in
            guard numbers.count == 3, abs(numbers[2]) <= 1 << 30 else { throw .malformed("a font's kerning pair is not three numbers") }
            return KerningPair(first: numbers[0], second: numbers[1], amount: Int(numbers[2]))
        }
        return BitmapFont(format: format, metrics: metrics, pages: textures, glyphs: glyphs, missingGlyph: missing, kerningPairs: pairs)
    }

    private static func glyph(_ numbers: [Int64], pages: [FontPage]) throws(BakedPackError) -> BitmapGlyph {
        guard numbers.count == 10, numbers.dropFirst().allSatisfy({ abs($0) <= 1 << 30 }), (0...255).contains(numbers[9]) else {
            throw .malformed("a font's glyph is not ten numbers in range")
        }
        let glyph = BitmapGlyph(
            id: numbers[0], x: Int(numbers[1]), y: Int(numbers[2]), width: Int(numbers[3]), height: Int(numbers[4]), xOffset: Int(numbers[5]),
            yOffset: Int(numbers[6]), xAdvance: Int(numbers[7]), page: Int(numbers[8]), channels: FontChannels(rawValue: UInt8(numbers[9])))
        guard glyph.width >= 0, glyph.height >= 0 else { throw .malformed("font glyph \(glyph.id) has a negative size") }
        if glyph.width > 0 && glyph.height > 0 {
            guard pages.indices.contains(glyph.page) else {
                throw .malformed("font glyph \(glyph.id) is on page index \(glyph.page), and the font has \(pages.count) pages")
            }
            let page = pages[glyph.page].texture
            guard glyph.x >= 0, glyph.y >= 0, glyph.x <= page.width - glyph.width, glyph.y <= page.height - glyph.height else {
                throw .malformed("font glyph \(glyph.id) lies outside its page")
            }
        }
        return glyph
    }
}
