import Foundation
import Preload
import PreloadFont
import PreloadPNG
import PreloadTestSupport
import Testing

/// Damage fails by name; what BMFont's readers forgive loads with a typed warning.
@Suite struct DamagedFontTests {
    /// Loads `text` as `name` beside the fixture pages and returns its one result.
    private func load(_ name: String, _ bytes: [UInt8]) async throws -> AssetResult {
        let directory = try TemporaryDirectory("damaged-font")
        for page in ["font_0.png", "font_1.png"] { _ = try directory.write(page, try FontFixtures.bytes(page)) }
        let path = try directory.write(name, bytes)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), BitmapFontLoader()])
        let report = try await coordinator.preload([AssetRequest(path: path, name: "font")])
        return try #require(report.results.first { $0.request.path == path })
    }

    private func text(replacing old: String, with new: String) throws -> [UInt8] {
        let text = try FontFixtures.text("font-text.fnt")
        #expect(text.contains(old), "the fixture no longer holds '\(old)'")
        return Array(text.replacingOccurrences(of: old, with: new).utf8)
    }

    private func failure(_ result: AssetResult) -> String {
        result.outcome.error.map { "\($0)" } ?? "loaded"
    }

    @Test func aGlyphOutsideItsPageFailsNamingIt() async throws {
        let id65 = try #require(try FontFixtures.text("font-text.fnt").split(separator: "\r\n").first { $0.hasPrefix("char id=65 ") })
        let moved = id65.replacingOccurrences(of: #"x=\d+ "#, with: "x=125 ", options: .regularExpression)
        let result = try await load("font.fnt", try text(replacing: String(id65), with: moved))
        #expect(failure(result).contains("glyph 65 ('A') lies outside page font_"), "\(failure(result))")
        #expect(result.outcome.error?.category == .corrupt)
    }

    @Test func aGlyphOnAPageTheFontLacksFailsNamingIt() async throws {
        let result = try await load("font.fnt", try text(replacing: "page id=1 file=\"font_1.png\"\r\n", with: ""))
        #expect(failure(result).contains("is on page 1, but the font has 1 page"), "\(failure(result))")
    }

    @Test func aNumberThatIsNotOneFailsNamingTheLine() async throws {
        let result = try await load("font.fnt", try text(replacing: "char id=33   x=", with: "char id=33   x=left "))
        #expect(failure(result).contains("malformed bitmap font: line 8: 'x' is 'left', not a number"), "\(failure(result))")
    }

    @Test func aFontWithoutItsCommonLineFails() async throws {
        let common = try #require(try FontFixtures.text("font-text.fnt").split(separator: "\r\n").first { $0.hasPrefix("common ") })
        let result = try await load("font.fnt", try text(replacing: common + "\r\n", with: ""))
        #expect(failure(result).contains("no 'common' line"), "\(failure(result))")
    }

    @Test func aNegativeSizeFails() async throws {
        let result = try await load("font.fnt", try text(replacing: "width=8     height=", with: "width=-8    height="))
        #expect(failure(result).contains("'width' is -8, below zero"), "\(failure(result))")
    }

    @Test func brokenXMLFailsWithItsLine() async throws {
        let xml = try FontFixtures.text("font-xml.fnt").replacingOccurrences(of: "</chars>", with: "</char>")
        let result = try await load("font.fnt", Array(xml.utf8))
        #expect(failure(result).contains("malformed bitmap font: not well-formed XML (line 106): "), "\(failure(result))")
        // A name that is not UTF-8 (Foundation's XMLParser on Linux traps on one; libxml2 refuses it).
        var bytes = Array(try FontFixtures.text("font-xml.fnt").utf8)
        bytes[try #require(bytes.firstRange(of: Array("xadvance".utf8))).lowerBound + 5] = 0xEE
        let notUTF8 = try await load("font.fnt", bytes)
        #expect(failure(notUTF8).contains("malformed bitmap font: not well-formed XML (line 10): Input is not proper UTF-8"), "\(failure(notUTF8))")
        let other = try await load("other.fnt", Array("<?xml version=\"1.0\"?>\n<atlas><info/></atlas>\n".utf8))
        #expect(failure(other).contains("not a bitmap font: the XML's root element is 'atlas', not 'font'"), "\(failure(other))")
    }

    @Test func aBinaryFontCutShortOrOfAnotherVersionFails() async throws {
        let binary = try FontFixtures.bytes("font-binary.fnt")
        for cut in [5, 20, binary.count - 3] {
            let result = try await load("font.fnt", Array(binary.prefix(cut)))
            #expect(failure(result).contains("malformed bitmap font: ") && failure(result).contains(" at byte "), "cut at \(cut): \(failure(result))")
        }
        var version2 = binary
        version2[3] = 2
        let result = try await load("font.fnt", version2)
        #expect(failure(result).contains("binary version 2; this loader reads version 3"), "\(failure(result))")
        #expect(result.outcome.error?.category == .unsupported)
    }

    @Test func somethingElseNamedFntIsNotAFont() async throws {
        let result = try await load("font.fnt", Array("hello, world\n".utf8))
        #expect(failure(result).contains("not a bitmap font"), "\(failure(result))")
    }

    @Test func whatReadersForgiveLoadsWithAWarning() async throws {
        var text = try FontFixtures.text("font-text.fnt")
        let id66 = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("char id=66 ") })
        text = text.replacingOccurrences(of: "chars count=96", with: "chars count=99") + String(id66) + "\r\n"
        text = text.replacingOccurrences(of: "kerning first=65  second=86  amount=-2", with: "kerning first=65  second=86  amount=-2.5")
        let result = try await load("font.fnt", Array(text.utf8))
        #expect(result.outcome.isLoaded, "\(failure(result))")
        #expect(
            result.warnings.map(\.code) == [.fontFractionalNumber, .fontDuplicateGlyph, .fontCountMismatch],
            "\(result.warnings.map(\.message))")
        #expect(result.warnings.last?.message == "'chars count' says 99, the file has 97 characters")

        // A page of another size than the font was made for: the glyphs still fit it.
        let bigger = try await load(
            "font.fnt", try self.text(replacing: "scaleW=128 scaleH=128", with: "scaleW=64 scaleH=64"))
        #expect(bigger.outcome.isLoaded && bigger.warnings.map(\.code) == [.fontPageSize], "\(bigger.warnings)")
    }

    /// `unicode=` with no value, as libGDX's skins, Phaser's `shortStack.fnt` and melonJS's
    /// `PressStart2P.fnt` write it: libGDX and Phaser ignore the field, and so the font loads.
    @Test func anInfoFieldWithNoValueLoadsWithAWarning() async throws {
        let result = try await load("font.fnt", try text(replacing: "unicode=1 ", with: "unicode= "))
        #expect(result.outcome.isLoaded, "\(failure(result))")
        #expect(result.warnings.map(\.code) == [.fontEmptyValue], "\(result.warnings.map(\.message))")
        #expect(result.warnings.first?.message == "line 1: 'unicode' has no value; read as 1")
        let font = try #require(result.outcome.asset as? BitmapFont)
        #expect(font.metrics.isUnicode)
    }

    /// A kerning pair written twice with different amounts (one real font has 66): the last is
    /// used, as libGDX and Phaser keep it, and said; a pair written twice alike loses nothing.
    @Test func conflictingKerningPairsLoadWithAWarning() async throws {
        let pairs = "kerning first=65  second=86  amount=-2\r\n"
        let again = "kerning first=65  second=86  amount=-3\r\nkerning first=86  second=65  amount=1\r\n"
        let conflicting = try await load("font.fnt", try text(replacing: pairs, with: pairs + again))
        #expect(conflicting.outcome.isLoaded, "\(failure(conflicting))")
        #expect(conflicting.warnings.map(\.code) == [.fontConflictingKerning, .fontCountMismatch], "\(conflicting.warnings.map(\.message))")
        #expect(
            conflicting.warnings.first?.message
                == "kerning pair 65 ('A'), 86 ('V') is written again with another amount (and 1 more pair); the last is used")
        let font = try #require(conflicting.outcome.asset as? BitmapFont)
        #expect(font.kerningPairs.first { $0.first == 65 && $0.second == 86 }?.amount == -3)
        let alike = try await load("font.fnt", try text(replacing: pairs, with: pairs + pairs))
        #expect(alike.outcome.isLoaded && alike.warnings.map(\.code) == [.fontCountMismatch], "\(alike.warnings.map(\.message))")
    }
}
