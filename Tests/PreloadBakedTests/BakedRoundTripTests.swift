import Foundation
import Preload
import PreloadAtlas
import PreloadAuthoring
import PreloadBaked
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
