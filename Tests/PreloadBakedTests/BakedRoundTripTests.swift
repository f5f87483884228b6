import Foundation
import Preload
import PreloadAtlas
import PreloadAuthoring
import PreloadBaked
import PreloadPNG
import PreloadTestSupport
import Testing

/// What loading a baked pack gives: the same names, results and pixels as the loose sources,
/// as views into the pack's mapping.
@Suite struct BakedRoundTripTests {
    @Test func aBakedPackLoadsTheSameNamesAndPixelsAsItsSources() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.smallPack(in: directory)
        let loose = try BakedFixtures.coordinator()
        let looseReport = try await loose.preload(BakedFixtures.smallPackSources(in: directory))
        let baked = try BakedFixtures.coordinator()
        let report = try await baked.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(report.results.map(\.request.name) == looseReport.results.map(\.request.name))
        #expect(report.results.map(\.request.name) == ["art/a.png", "art/b.png", "art/c.png", "art/notes.txt"])
        for name in ["art/a.png", "art/b.png", "art/c.png"] {
            let texture = try #require(baked.assets.texture(named: name))
            let original = try #require(loose.assets.texture(named: name))
            #expect(texture == original, "\(name)")
            #expect(texture.pixels.isMapped, "\(name) is a view into the pack, not a copy")
        }
        let notes = try #require(baked.assets.asset(named: "art/notes.txt", as: DataAsset.self))
        #expect(notes.bytes == Array("hello".utf8) && notes.bytes.isMapped)
        // Found by its path in the pack as well.
        #expect(baked.assets.texture(named: pack + "#art/a.png") != nil)
    }

    @Test func theSampleAssetsBakeAndLoadWithEqualPixels() async throws {
        let directory = try TemporaryDirectory()
        let pack = directory.file("sample.bake")
        let looseReport = try await BakedFixtures.bake([.folder(BakedFixtures.sampleAssets, name: "sample-assets")], to: pack)
        let coordinator = try BakedFixtures.coordinator()
        let report = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded, "\(report.errors)")
        var compared = 0
        for result in looseReport.allResults {
            guard let texture = result.outcome.asset as? Texture else { continue }
            let baked = try #require(coordinator.assets.texture(named: result.request.name), "\(result.request.name)")
            #expect(baked == texture, "\(result.request.name)")
            compared += 1
        }
        #expect(compared >= 15)
        // Atlases keep their frames and pages.
        for result in looseReport.allResults {
            guard let atlas = result.outcome.asset as? TextureAtlas else { continue }
            let baked = try #require(coordinator.assets.asset(named: result.request.name, as: TextureAtlas.self), "\(result.request.name)")
            #expect(baked.format == atlas.format && baked.scale == atlas.scale)
            #expect(baked.frames == atlas.frames, "\(result.request.name)")
            #expect(baked.pages.map(\.path) == atlas.pages.map(\.path))
            #expect(baked.pages.map(\.texture) == atlas.pages.map(\.texture))
        }
    }

    @Test func unloadingTheLastAssetReleasesTheMapping() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.smallPack(in: directory)
        let coordinator = try BakedFixtures.coordinator()
        _ = try await coordinator.preload([AssetRequest(path: pack)])
        weak var mapping: FileMapping?
        do {
            let texture = try #require(coordinator.assets.texture(named: "art/a.png"))
            mapping = texture.pixels.mapping
        }
        #expect(mapping != nil)
        for name in coordinator.assets.names { coordinator.assets.unload(named: name) }
        #expect(mapping == nil, "no asset holds the pack: it is unmapped")
    }
}

/// Every atlas dialect the atlas tests read, and every valid PngSuite image, baked and loaded
/// back: the same frames, pages and pixels.
@Suite struct BakedConformanceTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyAtlasDialectBakesToTheSameAtlas() async throws {
        let fixtures = Self.repository.appendingPathComponent("Tests/PreloadAtlasTests/Fixtures").path
        let atlases = [
            "folder/chars.atlas", "libgdx/sheet.atlas", "libgdx-legacy/sheet.atlas", "phaser-multiatlas/multi.json", "spritekit/sheet.atlasc",
            "texturepacker-array/sheet.json", "texturepacker-hash/sheet.json",
        ]
        let requests = atlases.map { AssetRequest(path: fixtures + "/" + $0, name: $0, plugin: "atlas") }
        let directory = try TemporaryDirectory()
        let pack = directory.file("atlases.bake")
        let loose = try await BakedFixtures.bake(requests, to: pack)
        #expect(loose.everythingLoaded, "\(loose.errors)")
        let coordinator = try BakedFixtures.coordinator()
        let report = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(report.results.map(\.request.name) == atlases)
        for result in loose.results {
            let atlas = try #require(result.outcome.asset as? TextureAtlas)
            let baked = try #require(coordinator.assets.asset(named: result.request.name, as: TextureAtlas.self))
            #expect(baked.format == atlas.format && baked.scale == atlas.scale, "\(result.request.name)")
            #expect(baked.frames == atlas.frames, "\(result.request.name)")
            #expect(baked.pages.map(\.path) == atlas.pages.map(\.path), "\(result.request.name)")
            #expect(baked.pages.map(\.texture) == atlas.pages.map(\.texture), "\(result.request.name)")
        }
    }

    @Test(arguments: [false, true]) func everyValidPngSuiteImageBakesToTheSamePixels(keepsSixteenBits: Bool) async throws {
        let folder = Self.repository.appendingPathComponent("Tests/PreloadPNGTests/Fixtures/pngsuite/png").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") && !$0.hasPrefix("x") }.sorted()
        #expect(names.count > 150)
        var options = AssetOptions()
        options[PNGLoaderSettings.self] = PNGLoaderSettings(keepsSixteenBitSamples: keepsSixteenBits)
        let requests = names.map { AssetRequest(path: folder + "/" + $0, name: "pngsuite/" + $0, options: options) }
        let directory = try TemporaryDirectory()
        let pack = directory.file("pngsuite.bake")
        let loose = try await BakedFixtures.bake(requests, to: pack)
        let coordinator = try BakedFixtures.coordinator()
        let report = try await coordinator.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded && report.results.count == names.count, "\(report.errors)")
        for result in loose.results {
            let texture = try #require(result.outcome.asset as? Texture)
            #expect(coordinator.assets.texture(named: result.request.name) == texture, "\(result.request.name)")
        }
    }
}
