import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// An atlas page that is also a file of the batch (`ui.png` beside `ui.json`, both found by
/// walking the folder, or both named): one file, one asset, loaded, counted and handed over once,
/// and never released by the hand-off before its atlas has read it.
@Suite struct WalkedAtlasPageTests {
    /// The bundled sample's atlases: a sprite folder and the descriptor atlas `ui/ui.json` whose
    /// page `ui/ui.png` lies beside it.
    static let atlases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-assets/atlases").path
    static var uiAtlas: String { atlases + "/ui/ui.json" }
    static var uiPage: String { atlases + "/ui/ui.png" }
    /// Runs enough to catch the race: before the fix, 3 to 13 of 24 runs failed here (5 of 8 in the issue).
    static let runs = 40

    func coordinator() throws -> PreloadCoordinator {
        try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(maxConcurrentLoads: 2))
    }

    /// What a batch handed over, by path, with the engine releasing each texture's CPU copy at
    /// once (as `preload --memory-budget` does; an atlas is kept whole).
    func load(
        _ requests: [AssetRequest], includesDependencies: Bool = false, on coordinator: PreloadCoordinator
    ) async throws -> (report: PreloadReport, handedOver: [String]) {
        let handOff = AssetHandOff(releasesCPUCopies: true, includesDependencies: includesDependencies)
        let handedOver = Recorder<String>()
        let stop = Locked(false)
        defer { stop.withLock { $0 = true } }
        handOff.drainOnAThread(until: stop, pause: 0) { item in
            handedOver.append(item.path)
            return item.asset is Texture ? 1 : nil  // a handle: the CPU copy goes
        }
        let report = try await coordinator.start(
            requests, options: PreloadOptions(assetEventOrder: .completion, handOff: handOff, completesAfterHandOff: true)
        ).finished()
        return (report, handedOver.all)
    }

    /// The issue's setting from code: a walked folder, `.completion` order, a hand-off that
    /// releases CPU copies and a batch that completes after it. Every run loads the atlas.
    @Test func aWalkedPageIsNotReleasedBeforeItsAtlasReadsIt() async throws {
        let coordinator = try coordinator()
        var failures: [String] = []
        for _ in 0..<Self.runs {
            let (report, _) = try await load([.folder(Self.atlases)], on: coordinator)
            failures += report.errors.map(\.description)
        }
        #expect(failures.isEmpty, "\(failures.count) failures in \(Self.runs) runs: \(failures.first ?? "")")
    }

    /// The walked page is the atlas's: listed once (under its atlas), counted once, handed over
    /// once (inside the atlas; as a dependency of its own only when dependencies are handed over).
    @Test func aWalkedPageIsOneAssetListedAndHandedOverOnce() async throws {
        let coordinator = try coordinator()
        let (report, handedOver) = try await load([.folder(Self.atlases)], on: coordinator)
        #expect(report.results.map(\.request.path) == [Self.atlases + "/creatures.atlas", Self.uiAtlas])
        #expect(report.loaded.count == 2 && report.everythingLoaded)
        #expect(report.dependencies.filter { $0.request.path == Self.uiPage }.count == 1, "\(report.dependencies.map(\.request.path))")
        #expect(report.allResults.filter { $0.request.path == Self.uiPage }.count == 1)
        #expect(handedOver.sorted() == [Self.atlases + "/creatures.atlas", Self.uiAtlas], "\(handedOver)")
        let atlas = try #require(report.results.last?.outcome.asset as? TextureAtlas)
        #expect(atlas.pages.map(\.texture.width) == [64], "the page's pixels are the atlas's")

        let withPages = try await load([.folder(Self.atlases)], includesDependencies: true, on: coordinator)
        #expect(withPages.report.everythingLoaded)
        #expect(withPages.handedOver.filter { $0 == Self.uiPage }.count == 1, "\(withPages.handedOver)")
    }

    /// A page the caller names stays a result of its own (it was asked for by name), loads once
    /// with the atlas that shares it, and is released only after the atlas has read it.
    @Test func aNamedPageStaysTheCallersAndItsAtlasReadsItFirst() async throws {
        let coordinator = try coordinator()
        var failures: [String] = []
        for _ in 0..<Self.runs {
            let (report, handedOver) = try await load([AssetRequest(path: Self.uiPage), AssetRequest(path: Self.uiAtlas)], on: coordinator)
            failures += report.errors.map(\.description)
            #expect(report.results.map(\.request.path) == [Self.uiPage, Self.uiAtlas])
            #expect(Set(report.results.compactMap(\.assetIndex)).count == 2)
            #expect(report.dependencies.first?.assetIndex == report.results.first?.assetIndex, "the page is one asset")
            #expect(handedOver.sorted() == [Self.uiAtlas, Self.uiPage].sorted(), "\(handedOver)")
        }
        #expect(failures.isEmpty, "\(failures.count) failures in \(Self.runs) runs: \(failures.first ?? "")")
    }
}
