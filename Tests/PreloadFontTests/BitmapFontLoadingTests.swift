import Foundation
import Preload
import PreloadFont
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import Testing

@Suite struct BitmapFontLoadingTests {
    @Test(arguments: FontFixtures.encodings.keys.sorted())
    func everyGlyphAndPairIsTheFilesOwnNumbers(file: String) throws {
        let description = try BitmapFontLoader.describe(path: FontFixtures.path(file))
        let expected = FontFixtures.expected
        #expect(description.format == FontFixtures.encodings[file])
        #expect(description.warnings.isEmpty, "\(description.warnings)")
        #expect(description.glyphs == expected.chars.filter { $0.id > 0 }.map(\.glyph))
        #expect(description.missingGlyph == expected.chars.first { $0.id == -1 }?.glyph)
        #expect(description.kerningPairs == expected.kernings.map { KerningPair(first: $0.first, second: $0.second, amount: $0.amount) })
        #expect(description.pages.map(\.nameAsWritten) == expected.pages)
        #expect(description.pages.map(\.path) == expected.pages.map { FontFixtures.path($0) })
        let metrics = description.metrics
        #expect(metrics.face == expected.metrics.face && metrics.size == expected.metrics.size)
        #expect(metrics.lineHeight == expected.metrics.lineHeight && metrics.base == expected.metrics.base)
        #expect(metrics.pageWidth == expected.metrics.scaleW && metrics.pageHeight == expected.metrics.scaleH)
        #expect(metrics.spacing == expected.metrics.spacing && metrics.padding == expected.metrics.padding)
        #expect(metrics.isUnicode && metrics.isSmooth && !metrics.isBold && !metrics.isItalic && !metrics.isPacked)
        #expect(metrics.channelContents == [.glyph, .one, .one, .one])
    }

    @Test func theThreeEncodingsDescribeOneFont() throws {
        var descriptions = try FontFixtures.encodings.keys.sorted().map { try BitmapFontLoader.describe(path: FontFixtures.path($0)) }
        for index in descriptions.indices { descriptions[index].format = .text }
        #expect(descriptions.count == 3)
        for description in descriptions.dropFirst() {
            #expect(description.metrics == descriptions[0].metrics)
            #expect(description == descriptions[0])
        }
    }

    @Test func aFontLoadsWithItsPagesThroughTheImagePlugin() async throws {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), BitmapFontLoader()])
        let requests = FontFixtures.encodings.keys.sorted().map { AssetRequest(path: FontFixtures.path($0), name: $0) }
        let report = try await coordinator.preload(requests)
        #expect(report.everythingLoaded, "\(report.errors)")
        // Three fonts and their two shared pages, each decoded once and counted once.
        #expect(Set(report.allResults.compactMap(\.assetIndex)).count == 5)
        #expect(report.decodedBytes == 2 * 128 * 128 * 4)
        for (name, format) in FontFixtures.encodings {
            let font = try #require(coordinator.assets.asset(named: name, as: BitmapFont.self))
            #expect(font.format == format && font.pages.count == 2 && font.kind == .font)
            #expect(font.pages.allSatisfy { $0.texture.width == 128 && $0.texture.height == 128 })
            let a = try #require(font.glyph(for: "A"))
            let page = font.pages[a.page].texture
            // The glyph's rectangle holds ink (the renderer's white, opaque somewhere).
            let inked = (a.y..<a.y + a.height).contains { y in (a.x..<a.x + a.width).contains { x in page.rgba8(x: x, y: y)[3] == 255 } }
            #expect(inked)
            #expect(font.byteCount == 2 * 128 * 128 * 4)
        }
    }

    @Test func aLineIsLaidOutByAdvancesAndKerning() throws {
        let description = try BitmapFontLoader.describe(path: FontFixtures.path("font-text.fnt"))
        let font = BitmapFont(
            format: description.format, metrics: description.metrics, pages: [], glyphs: description.glyphs,
            missingGlyph: description.missingGlyph, kerningPairs: description.kerningPairs)
        let glyph = { (c: Unicode.Scalar) in font.glyph(for: c)! }
        #expect(font.kerning(from: "A", to: "V") == -2 && font.kerning(from: "V", to: "A") == -2 && font.kerning(from: "A", to: "A") == 0)
        let line = font.layOut("AVA")
        let a = glyph("A"), v = glyph("V")
        #expect(line.glyphs.map(\.x) == [a.xOffset, a.xAdvance - 2 + v.xOffset, a.xAdvance - 2 + v.xAdvance - 2 + a.xOffset])
        #expect(line.glyphs.map(\.y) == [a.yOffset, v.yOffset, a.yOffset])
        #expect(line.width == a.xAdvance * 2 + v.xAdvance - 4 && line.height == font.lineHeight && line.lineCount == 1)

        // Two lines (CRLF too), a character the font lacks drawn with the missing glyph.
        let two = font.layOut("To\r\né")
        let t = glyph("T"), o = glyph("o")
        #expect(two.lineCount == 2 && two.height == 2 * font.lineHeight)
        #expect(two.glyphs.map(\.x) == [t.xOffset, t.xAdvance - 3 + o.xOffset, font.missingGlyph!.xOffset])
        #expect(two.glyphs.map(\.line) == [0, 0, 1] && two.glyphs[2].y == font.lineHeight + font.missingGlyph!.yOffset)
        #expect(two.missing == ["é"] && two.width == t.xAdvance - 3 + o.xAdvance)
    }

    @Test func aFontInsideAZipFindsItsPagesInside() async throws {
        let directory = try TemporaryDirectory("font-in-zip")
        let text = try FontFixtures.text("font-text.fnt").replacingOccurrences(of: "file=\"font_", with: "file=\"../pages/font_")
        let zip = try directory.write(
            "fonts.zip",
            ZipFixture.stored([
                ("fonts/ui.fnt", Array(text.utf8)), ("pages/font_0.png", try FontFixtures.bytes("font_0.png")),
                ("pages/font_1.png", try FontFixtures.bytes("font_1.png")),
            ]))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), BitmapFontLoader(), PackLoader()])
        let report = try await coordinator.preload([AssetRequest(path: zip)])
        #expect(report.everythingLoaded, "\(report.errors)")
        let font = try #require(coordinator.assets.asset(atPath: zip + "#fonts/ui.fnt") as? BitmapFont)
        #expect(font.pages.map(\.path) == [zip + "#pages/font_0.png", zip + "#pages/font_1.png"])

        // A page reaching out of the archive fails the font, by name.
        let escaping = try directory.write(
            "escaping.zip", ZipFixture.stored([("ui.fnt", Array(text.replacingOccurrences(of: "../pages/", with: "../../").utf8))]))
        let failed = try await coordinator.preload([AssetRequest(path: escaping)])
        let error = try #require(failed.errors.first)
        #expect("\(error)".contains("ui.fnt") && "\(error)".contains("outside the archive"), "\(error)")
    }

    @Test func pagesFromTheRequestReplaceTheDescriptors() async throws {
        let directory = try TemporaryDirectory("font-pages")
        let one = try FontFixtures.text("font-xml.fnt").replacingOccurrences(of: "page=\"1\"", with: "page=\"0\"")
            .replacingOccurrences(of: "<page id=\"1\" file=\"font_1.png\" />", with: "")
        let font = try directory.write("title.xml", text: one)
        let page = try directory.write("title.png", PNGFixture.rgba(width: 128, height: 128, pixels: PNGFixture.noise(width: 128, height: 128)))
        let options = AssetOptions().with(BitmapFontPages.self, BitmapFontPages(files: [page]))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), BitmapFontLoader()])
        let report = try await coordinator.preload([AssetRequest(path: font, name: "title", plugin: "bmfont", options: options)])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(coordinator.assets.asset(named: "title", as: BitmapFont.self)?.pages.map(\.path) == [page])

        let twoFiles = AssetOptions().with(BitmapFontPages.self, BitmapFontPages(files: [page, page]))
        let failed = try await coordinator.preload([AssetRequest(path: font, plugin: "bmfont", options: twoFiles)])
        #expect(failed.errors.first.map { "\($0)".contains("the font has 1 page but 2 page files were given") } == true)
    }

    @Test func anXMLFontIsClaimedByItsContent() async throws {
        let directory = try TemporaryDirectory("font-claims")
        let xml = try directory.write("title.xml", text: try FontFixtures.text("font-xml.fnt"))
        for page in ["font_0.png", "font_1.png"] { _ = try directory.write(page, try FontFixtures.bytes(page)) }
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), BitmapFontLoader()])
        let report = try await coordinator.preload([AssetRequest(path: xml, name: "title")])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(coordinator.assets.asset(named: "title", as: BitmapFont.self)?.format == .xml)
    }

    /// An SVG icon whose `<defs>` hold an SVG `<font>` (LibreOffice's icon themes have six) is
    /// not a bitmap font: the claim goes by the root element, so a folder of icons skips it
    /// rather than failing; an XML font whose `<font>` comes after a long comment is still one.
    @Test func onlyAFontRootElementIsABitmapFont() async throws {
        let directory = try TemporaryDirectory("font-roots")
        let svg = try directory.write(
            "icons/sigma.svg",
            text: #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><defs><font horiz-adv-x="1000"><font-face font-family="x"/>"#
                + #"<glyph unicode="s" d="M0 0"/></font></defs><text>s</text></svg>"#)
        let comment = "<!-- " + String(repeating: "made by hand ", count: 100) + "-->\n"
        let font = try directory.write(
            "icons/title.xml", text: try FontFixtures.text("font-xml.fnt").replacingOccurrences(of: "<font>", with: comment + "<font>"))
        for page in ["font_0.png", "font_1.png"] { _ = try directory.write("icons/" + page, try FontFixtures.bytes(page)) }
        #expect(BitmapFontLoader().signatureMatch(Array(try FontFixtures.text("font-xml.fnt").utf8.prefix(256))) == .matches)
        #expect(BitmapFontLoader().signatureMatch(Array(comment.utf8.prefix(256))) == .undecided)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), BitmapFontLoader()])
        let report = try await coordinator.preload([.folder(directory.file("icons"))])
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.skippedPaths == [svg])
        #expect(report.results.first { $0.request.path == font }?.plugin == "bmfont")
        #expect(coordinator.assets.asset(atPath: font) is BitmapFont)
    }
}
