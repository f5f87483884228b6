import Preload
import PreloadFont
import PreloadTrueType
import Testing

/// Every glyph on the pages is FreeType's own bitmap at that size, byte for byte, and every number
/// is FreeType's: the references were computed through ctypes on the system's libfreetype
/// (`make_fixtures.py`), not by the plugin.
@Suite struct PixelIdentityTests {
    @Test(arguments: TrueTypeFixtures.cases.keys.sorted())
    func everyGlyphIsFreeTypesBitmap(name: String) async throws {
        let expected = try #require(TrueTypeFixtures.cases[name])
        let result = try await TrueTypeFixtures.load(expected.path, expected.options)
        let font = try #require(result.outcome.asset as? BitmapFont, "\(TrueTypeFixtures.failure(result))")
        try Self.expect(font, matches: expected, options: expected.options)
        let missing = expected.glyphs.filter { $0.glyph == 0 }
        #expect(result.warnings.map(\.code) == (missing.isEmpty ? [] : [.trueTypeMissingCharacters]), "\(result.warnings)")
    }

    /// Padding around each glyph, wider spacing, premultiplied pages, and pages so small the
    /// glyphs spill onto several: the same bitmaps inside the padding.
    @Test func paddingSpacingAndPremultipliedPagesKeepTheBitmaps() async throws {
        let expected = try #require(TrueTypeFixtures.cases["latin1-32"])
        var options = expected.options
        options.padding = 2
        options.spacing = 3
        options.alphaMode = .premultiplied
        options.maxPageSize = 128
        let result = try await TrueTypeFixtures.load(expected.path, options)
        let font = try #require(result.outcome.asset as? BitmapFont, "\(TrueTypeFixtures.failure(result))")
        #expect(font.pages.count > 2 && font.pages.allSatisfy { $0.texture.alphaMode == .premultiplied })
        #expect(font.pages.map(\.path) == font.pages.indices.map { "\(expected.path)#\($0)" })
        try Self.expect(font, matches: expected, options: options)
    }

    /// Checks the font's numbers and pages against FreeType's.
    static func expect(_ font: BitmapFont, matches expected: TrueTypeFixtures.Case, options: TrueTypeFontLoaderSettings) throws {
        let metrics = font.metrics
        #expect(font.format == .rasterized && font.kind == .font)
        #expect(metrics.face == expected.family && metrics.isBold == expected.bold && metrics.isItalic == expected.italic)
        #expect(metrics.size == expected.size && metrics.isSmooth == options.isAntialiased && metrics.isUnicode)
        #expect(font.lineHeight == expected.lineHeight && font.base == expected.base)
        #expect(metrics.padding == Array(repeating: options.padding, count: 4) && metrics.spacing == [options.spacing, options.spacing])
        let pageSize = (font.pages.first?.texture.width ?? 0, font.pages.first?.texture.height ?? 0)
        #expect(metrics.pageWidth == pageSize.0 && metrics.pageHeight == pageSize.1)
        #expect(font.pages.allSatisfy { $0.texture.width == pageSize.0 && $0.texture.height == pageSize.1 })
        #expect(font.pages.allSatisfy { $0.texture.width <= options.maxPageSize && $0.texture.height <= options.maxPageSize })

        let present = expected.glyphs.filter { $0.glyph != 0 }
        #expect(font.glyphs.map(\.id) == present.map { Int64($0.code) })
        var drawn: [BitmapGlyph] = []
        for reference in present {
            let glyph = try #require(font.glyph(id: Int64(reference.code)))
            try expect(glyph, font: font, equals: try #require(reference.bitmap), padding: options.padding, what: "character \(reference.code)")
            drawn.append(glyph)
        }
        let notdef = try #require(font.missingGlyph)
        #expect(notdef.id == -1)
        try expect(notdef, font: font, equals: expected.notdef, padding: options.padding, what: ".notdef")
        drawn.append(notdef)
        #expect(font.kerningPairs == expected.kerning.map { KerningPair(first: $0.first, second: $0.second, amount: $0.amount) })
        try expectNothingElseOnThePages(font, glyphs: drawn, padding: options.padding, spacing: options.spacing)
    }

    /// The glyph's rectangle, offsets and advance, and the coverage inside its padding.
    static func expect(_ glyph: BitmapGlyph, font: BitmapFont, equals bitmap: TrueTypeFixtures.Bitmap, padding: Int, what: String) throws {
        let inked = bitmap.width > 0 && bitmap.rows > 0
        let pad = inked ? padding : 0
        #expect(glyph.width == (inked ? bitmap.width + 2 * pad : 0) && glyph.height == (inked ? bitmap.rows + 2 * pad : 0), "\(what)")
        #expect(glyph.xOffset == bitmap.left - pad && glyph.yOffset == font.base - bitmap.top - pad, "\(what)")
        #expect(glyph.xAdvance == bitmap.advance && glyph.channels == .all, "\(what)")
        guard inked else {
            #expect(bitmap.sha256 == TrueTypeFixtures.sha256([UInt8]()), "\(what)")
            return
        }
        let page = font.pages[glyph.page].texture
        var alpha: [UInt8] = []
        alpha.reserveCapacity(bitmap.width * bitmap.rows)
        page.pixels.withUnsafeBytes { pixels in
            for row in 0..<bitmap.rows {
                let start = ((glyph.y + pad + row) * page.width + glyph.x + pad) * 4
                for column in 0..<bitmap.width { alpha.append(pixels[start + column * 4 + 3]) }
            }
        }
        #expect(TrueTypeFixtures.sha256(alpha) == bitmap.sha256, "\(what): the coverage differs from FreeType's")
    }

    /// Rectangles keep `spacing` apart; outside the glyphs' bitmaps every pixel is transparent;
    /// colour is white (straight) or the coverage (premultiplied).
    static func expectNothingElseOnThePages(_ font: BitmapFont, glyphs: [BitmapGlyph], padding: Int, spacing: Int) throws {
        let placed = glyphs.filter { $0.width > 0 }
        for (index, a) in placed.enumerated() {
            for b in placed[(index + 1)...] where a.page == b.page {
                let apart =
                    a.x + a.width + spacing <= b.x || b.x + b.width + spacing <= a.x || a.y + a.height + spacing <= b.y
                    || b.y + b.height + spacing <= a.y
                #expect(apart, "glyphs \(a.id) and \(b.id) closer than \(spacing) px")
            }
        }
        for (number, page) in font.pages.enumerated() {
            let texture = page.texture
            var inked = [Bool](repeating: false, count: texture.width * texture.height)
            for glyph in placed where glyph.page == number {
                for y in (glyph.y + padding)..<(glyph.y + glyph.height - padding) {
                    for x in (glyph.x + padding)..<(glyph.x + glyph.width - padding) { inked[y * texture.width + x] = true }
                }
            }
            let premultiplied = texture.alphaMode == .premultiplied
            let (stray, wrongColour) = texture.pixels.withUnsafeBytes { pixels in
                var stray = 0, wrongColour = 0
                for pixel in 0..<inked.count {
                    let alpha = pixels[pixel * 4 + 3]
                    if !inked[pixel] && alpha != 0 { stray += 1 }
                    let colour = premultiplied ? alpha : 255
                    if pixels[pixel * 4] != colour || pixels[pixel * 4 + 1] != colour || pixels[pixel * 4 + 2] != colour { wrongColour += 1 }
                }
                return (stray, wrongColour)
            }
            #expect(stray == 0 && wrongColour == 0, "page \(number): \(stray) pixels inked outside the glyphs, \(wrongColour) of the wrong colour")
        }
    }
}
