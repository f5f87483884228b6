import Foundation
import Preload
import PreloadAuthoring
import PreloadBaked
import PreloadFont
import PreloadPNG
import PreloadTestSupport
import Testing

/// Bitmap fonts bake as their tables, their pages as texture entries, and load as views of the
/// mapped pack: the same glyphs, kerning and metrics, with no parse and no decode.
@Suite struct BakedFontTests {
    private func bakedFont(_ directory: TemporaryDirectory) async throws -> (loose: BitmapFont, pack: String) {
        _ = try directory.write("fonts/pixel.fnt", text: PhaserProject.fontXML)
        _ = try directory.write("fonts/font.png", PNGFixture.rgba(width: 16, height: 16, pixels: PNGFixture.noise(width: 16, height: 16)))
        let loose = try PreloadCoordinator(plugins: [PNGLoader(), BitmapFontLoader()])
        let report = try await loose.preload([AssetRequest(path: directory.file("fonts/pixel.fnt"), name: "pixel")])
        #expect(report.everythingLoaded, "\(report.errors)")
        let pack = directory.file("level.bake")
        let summary = try BakeWriter.write(report, to: pack)
        #expect(summary.count(ofKind: "font") == 1 && summary.count(ofKind: "texture") == 1 && summary.entries == 2, "\(summary)")
        return (try #require(loose.assets.asset(named: "pixel", as: BitmapFont.self)), pack)
    }

    @Test func aFontBakesAsItsTableAndItsPage() async throws {
        let directory = try TemporaryDirectory("baked-font")
        let (loose, pack) = try await bakedFont(directory)
        let baked = try PreloadCoordinator(plugins: [BitmapFontLoader(), BakedPackLoader()])
        let report = try await baked.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded, "\(report.errors)")
        let font = try #require(baked.assets.asset(named: "pixel", as: BitmapFont.self))
        #expect(font.format == loose.format && font.metrics == loose.metrics && font.glyphs == loose.glyphs)
        #expect(font.kerningPairs == loose.kerningPairs && font.missingGlyph == loose.missingGlyph)
        #expect(font.pages.map(\.path) == loose.pages.map(\.path) && font.pages[0].texture.pixels == loose.pages[0].texture.pixels)
        #expect(font.pages[0].texture.pixels.isMapped, "a view into the pack, not a decode")
        #expect(font.layOut("AVA") == loose.layOut("AVA"))
    }

    @Test func aGlyphOutsideItsPageInTheTableFailsByName() async throws {
        let directory = try TemporaryDirectory("baked-font-damage")
        let (_, pack) = try await bakedFont(directory)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pack)))
        // The glyph of 'V' (id 86 at x 6, y 0, 5x7) moved to y 9 and made 9 high (9 + 9 > 16), the
        // entry's checksum trusted.
        let glyph: [UInt8] = [86, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 7, 0, 0, 0]
        let at = try #require(bytes.firstRange(of: glyph))
        bytes[at.lowerBound + 12] = 9
        bytes[at.lowerBound + 20] = 9
        _ = try directory.write("damaged.bake", bytes)
        let baked = try PreloadCoordinator(plugins: [BitmapFontLoader(), BakedPackLoader(verification: .indexOnly)])
        let damaged = try await baked.preload([AssetRequest(path: directory.file("damaged.bake"))])
        let error = try #require(damaged.errors.first)
        #expect("\(error)".contains("font glyph 86 lies outside its page"), "\(error)")
    }
}
