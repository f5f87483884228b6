import Preload

/// A bitmap font's descriptor as read, before its pages are loaded: what
/// ``BitmapFontLoader/describe(path:files:)`` returns and what the loader checks the pages
/// against. Equal descriptions mean equal fonts: the text, XML and binary forms of one BMFont
/// export describe the same font.
public struct BitmapFontDescription: Hashable, Sendable {
    /// One page: where it is and how the descriptor wrote its name.
    public struct Page: Hashable, Sendable {
        /// The page's path, resolved against the descriptor's folder (or replaced by
        /// ``BitmapFontPages``).
        public var path: String
        /// The name as the descriptor wrote it.
        public var nameAsWritten: String
    }

    /// The encoding the descriptor was read from.
    public var format: BitmapFont.Format
    /// Its `info` and `common` numbers.
    public var metrics: FontMetrics
    /// Its pages, by id.
    public var pages: [Page]
    /// Its characters, in file order, each id once (for an id written twice, the last, as
    /// libGDX and Phaser keep), without the missing-character glyph.
    public var glyphs: [BitmapGlyph]
    /// The glyph drawn for a character the font lacks (BMFont's `id=-1`), if it has one.
    public var missingGlyph: BitmapGlyph?
    /// Its kerning pairs, in file order, each pair once (the last).
    public var kerningPairs: [KerningPair]
    /// What was forgiven while reading it.
    public var warnings: [AssetWarning]

    /// The first problem with the glyphs on pages of these sizes (in ``pages`` order): a glyph
    /// on a page the font does not have, or reaching outside its page; `nil` if there is none.
    public func problem(pageSizes: [(width: Int, height: Int)], file: String) -> BitmapFontError? {
        for glyph in glyphs + (missingGlyph.map { [$0] } ?? []) where glyph.width > 0 && glyph.height > 0 {
            guard glyph.page < pageSizes.count else {
                return .unknownPage(file: file, glyph: glyph.id, page: glyph.page, pageCount: pageSizes.count)
            }
            let size = pageSizes[glyph.page]
            if glyph.x < 0 || glyph.y < 0 || glyph.x > size.width - glyph.width || glyph.y > size.height - glyph.height {
                return .glyphOutsidePage(file: file, glyph: glyph.id, page: pages[glyph.page].path, pageWidth: size.width, pageHeight: size.height)
            }
        }
        return nil
    }
}
