import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// A batch that completes after its hand-off moves its bar by each item's public
/// `progressWeight`, which carries the dependencies the item brings (an atlas's pages, a sprite
/// folder's sprites, a walked page folded into its atlas): an engine adding up the weights of
/// what it has uploaded holds the bar's count, and the last item brings it to the total. (The
/// bar once counted the caller's own assets alone: an atlas moved it by its descriptor's bytes,
/// its pages' never, and an engine counting what it had on the GPU never reached the total.)
@Suite struct HandOffProgressWeightTests {
    static let atlases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-assets/atlases").path

    /// Loads `requests` with a hand-off that the test drains one item at a time once everything
    /// has loaded, checking after each that the batch shows the weight handed over so far (plus
    /// the 5% loading adds, all of it, as everything has loaded).
    func handOverOneByOne(_ requests: [AssetRequest], expecting items: Int) async throws -> (weights: [Int64], total: Int64, report: PreloadReport) {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(maxConcurrentLoads: 2))
        let handOff = AssetHandOff()
        let batch = coordinator.start(
            requests, options: PreloadOptions(progressWeighting: .decodedBytes, handOff: handOff, completesAfterHandOff: true))
        #expect(await handOff.waitUntilHolding(items, seconds: 120), "every item reached the hand-off")
        let total = batch.progress.totalUnitCount
        var weights: [Int64] = []
        while handOff.count > 0 {
            handOff.drain(maxItems: 1) { item in
                weights.append(item.progressWeight)
                return nil
            }
            let handedOver = Double(weights.reduce(0, +)) / Double(total)
            if handOff.count > 0 {
                #expect(
                    abs(batch.progress.fractionCompleted - (0.95 * handedOver + 0.05)) < 1e-9,
                    "after \(weights.count) items: \(batch.progress.fractionCompleted), handed over \(handedOver)")
            }
        }
        let report = try await batch.finished()
        #expect(report.everythingLoaded && batch.progress.fractionCompleted == 1)
        return (weights, total, report)
    }

    @Test func eachItemCarriesItsDependenciesWeightAndTheItemsAddUpToTheBatch() async throws {
        let directory = try TemporaryDirectory()
        let plain = try directory.write("plain.png", PNGFixture.rgba(width: 32, height: 32, pixels: PNGFixture.noise(width: 32, height: 32)))
        let requests = [
            AssetRequest(path: Self.atlases + "/ui/ui.json", name: "ui"), AssetRequest(path: Self.atlases + "/creatures.atlas", name: "creatures"),
            AssetRequest(path: plain, name: "plain"),
        ]
        let (weights, total, report) = try await handOverOneByOne(requests, expecting: 3)
        #expect(weights.count == 3 && weights.reduce(0, +) == total, "\(weights) against \(total)")
        // Each result weighs its own; the report's results add up to the batch's total.
        #expect(report.allResults.reduce(0) { $0 + $1.progressWeight } == total)
        let ui = try #require(report.results.first { $0.request.name == "ui" })
        let page = try #require(report.dependencies.first { $0.request.path.hasSuffix("ui.png") })
        #expect(page.progressWeight > 0, "the page weighs its decoded bytes")
        #expect(weights.contains(ui.progressWeight + page.progressWeight), "the atlas's item carries its page: \(weights)")
        let plainResult = try #require(report.results.first { $0.request.name == "plain" })
        #expect(plainResult.progressWeight == 32 * 32 * 4 && weights.contains(32 * 32 * 4))
    }

    /// A walked folder: `ui.png`, found beside `ui.json`, is folded into the atlas and handed
    /// over with it, its weight too.
    @Test func aWalkedPageFoldedIntoItsAtlasIsCarriedByIt() async throws {
        let (weights, total, report) = try await handOverOneByOne([.folder(Self.atlases)], expecting: 2)
        #expect(weights.count == 2 && weights.reduce(0, +) == total, "\(weights) against \(total)")
        #expect(report.allResults.reduce(0) { $0 + $1.progressWeight } == total)
    }
}
