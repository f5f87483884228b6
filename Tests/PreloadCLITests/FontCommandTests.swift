import Foundation
import PreloadTestSupport
import Testing

/// `preload` on fonts: what it says of them, and nothing from the libraries underneath.
@Suite struct FontCommandTests {
    @Test func anXMLFontInAnEncodingItIsNotFailsAloneAndQuietly() async throws {
        let directory = try TemporaryDirectory("font-command")
        // Declared EUC-JP, with bytes EUC-JP does not have: libxml2's converter fails, and would
        // print "encoding error" on standard error unless it is told not to.
        _ = try directory.write(
            "bad.fnt",
            Array("<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<font><info face=\"".utf8) + [0xFF, 0xFE, 0xFF] + Array("\"/></font>\n".utf8))
        _ = try directory.write("pixel.fnt", text: PhaserProject.fontXML)
        _ = try directory.write("font.png", PNGFixture.rgba(width: 16, height: 16, pixels: PNGFixture.noise(width: 16, height: 16)))
        let run = try await CommandRunner.preload(["-v", "bad.fnt", "pixel.fnt"], in: directory.path)
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL  bad.fnt: malformed bitmap font: not well-formed XML (line 2): "), "\(run.stdout)")
        #expect(run.stdout.contains("ok    pixel.fnt  bmfont-xml font 'Pixel' 8 px, 1 page, 2 glyphs, 1 kerning pair"), "\(run.stdout)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }
}
