import Foundation
import Preload
import PreloadFont
import PreloadManifest
import PreloadTestSupport
import PreloadTrueType
import Testing

/// A manifest's `"truetype"` options set the size and characters a font is rasterized with.
@Suite struct TrueTypeManifestTests {
    @Test func aManifestEntrySetsTheSizeAndCharacters() async throws {
        let directory = try TemporaryDirectory("truetype-manifest")
        let font = try directory.write("title.ttf", [UInt8](try Data(contentsOf: URL(fileURLWithPath: TrueTypeFixtures.sampleFont))))
        let manifest = try directory.write(
            "levels.json",
            text: """
                {"groups": {"ui": {"assets": [
                  {"path": "title.ttf", "name": "title", "options": {"truetype": {"size": 48, "characters": "0123456789", "charset": "ascii",
                                                                                   "hinting": "light", "spacing": 2, "alpha": "premultiplied"}}},
                  {"path": "title.ttf", "name": "digits", "options": {"truetype": {"characters": "0123456789"}}}
                ]}}}
                """)
        let read = try AssetManifest(contentsOf: manifest, registry: try PluginRegistry([TrueTypeFontLoader()]))
        let requests = try read.requests(for: ["ui"])
        let title = requests[0].options[TrueTypeFontLoaderSettings.self]
        #expect(title.pixelSize == 48 && title.hinting == .light && title.spacing == 2 && title.alphaMode == .premultiplied)
        #expect(title.characters.count == 95 && requests[1].options[TrueTypeFontLoaderSettings.self].characters.count == 10)
        let coordinator = try PreloadCoordinator(plugins: [TrueTypeFontLoader()])
        let report = try await coordinator.preload(requests)
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(coordinator.assets.asset(named: "title", as: BitmapFont.self)?.metrics.size == 48)
        #expect(coordinator.assets.asset(named: "digits", as: BitmapFont.self)?.glyphs.count == 10)
        #expect(requests[0].path == font)

        // Without the plugin, the manifest names what it does not know.
        #expect(throws: (any Error).self) { try AssetManifest(contentsOf: manifest, registry: PluginRegistry()) }
        let wrong = try directory.write(
            "wrong.json", text: #"{"groups": {"ui": {"assets": [{"path": "title.ttf", "options": {"truetype": {"size": "big"}}}]}}}"#)
        let error = #expect(throws: (any Error).self) { try AssetManifest(contentsOf: wrong, registry: try PluginRegistry([TrueTypeFontLoader()])) }
        #expect("\(error!)".contains("'size' must be a whole number from 1 to 512"), "\(error!)")
    }
}
