import Foundation
import Preload
import PreloadPNG
import PreloadPack
import PreloadTestSupport
import Testing

/// A pack handed over to an engine, in a batch that completes after its hand-off: its index
/// weighs 1 and its entries their own bytes, so handed over as one item it carries its entries'
/// weights (a damaged one's too), and the items add up to the batch's `totalUnitCount`. Handed
/// over entry by entry (`includesDependencies`), each carries its own, and a damaged entry's
/// weight is done when it fails. (The bar once moved by the pack's index alone, 1 unit, and an
/// engine counting the textures it had never reached the total.)
@Suite struct PackHandOffWeightTests {
    let directory: TemporaryDirectory
    let pack: String
    let plain: String

    init() throws {
        directory = try TemporaryDirectory()
        let damaged = Array(PNGFixture.rgba(width: 16, height: 16, pixels: PNGFixture.noise(width: 16, height: 16)).prefix(40))
        pack = try directory.write(
            "level.zip",
            ZipFixture.stored([
                ("a.png", PNGFixture.rgba(width: 64, height: 64, pixels: PNGFixture.noise(width: 64, height: 64, seed: 2))),
                ("b.png", PNGFixture.rgba(width: 32, height: 32, pixels: PNGFixture.noise(width: 32, height: 32, seed: 3))),
                ("damaged.png", damaged), ("notes.txt", Array("the level's notes".utf8)),
            ]))
        plain = try directory.write("plain.png", PNGFixture.rgba(width: 8, height: 8, pixels: PNGFixture.noise(width: 8, height: 8)))
    }

    /// Drains the batch's items one at a time once everything has loaded; after each, the
    /// fraction the batch shows, and the weights drained so far.
    func drainOneByOne(
        includesDependencies: Bool, items: Int
    ) async throws -> (
        steps: [(fraction: Double, drained: Int64)], weights: [Int64], total: Int64, report: PreloadReport
    ) {
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), PackLoader()], configuration: .init(maxConcurrentLoads: 2))
        let handOff = AssetHandOff(includesDependencies: includesDependencies)
        let batch = coordinator.start(
            [AssetRequest(path: pack, name: "level"), AssetRequest(path: plain, name: "plain")],
            options: PreloadOptions(progressWeighting: .decodedBytes, handOff: handOff, completesAfterHandOff: true))
        #expect(await handOff.waitUntilHolding(items, seconds: 120), "every item reached the hand-off")
        let total = batch.progress.totalUnitCount
        var weights: [Int64] = []
        var steps: [(fraction: Double, drained: Int64)] = []
        while handOff.count > 0 {
            handOff.drain(maxItems: 1) { item in
                weights.append(item.progressWeight)
                return nil
            }
            if handOff.count > 0 { steps.append((batch.progress.fractionCompleted, weights.reduce(0, +))) }
        }
        let report = try await batch.finished()
        #expect(batch.progress.fractionCompleted == 1)
        return (steps, weights, total, report)
    }

    @Test func aPackHandedOverWholeCarriesItsEntriesWeightsTheDamagedOnesToo() async throws {
        let (steps, weights, total, report) = try await drainOneByOne(includesDependencies: false, items: 2)
        #expect(report.failed.isEmpty && report.dependencies.filter { !$0.outcome.isLoaded }.count == 1, "only the damaged entry fails")
        #expect(report.allResults.reduce(0) { $0 + $1.progressWeight } == total)
        let level = try #require(report.results.first { $0.request.name == "level" })
        #expect(level.progressWeight == 1, "the pack's own work: its index")
        let entries = report.dependencies.reduce(Int64(0)) { $0 + $1.progressWeight }
        #expect(weights.sorted() == [8 * 8 * 4, 1 + entries], "the pack's item carries every entry: \(weights)")
        for step in steps {
            #expect(abs(step.fraction - (0.95 * Double(step.drained) / Double(total) + 0.05)) < 1e-9, "\(step) of \(total)")
        }
    }

    @Test func entriesHandedOverOnTheirOwnCarryTheirOwnAndAFailedOneIsDoneWhenItFails() async throws {
        let (steps, weights, total, report) = try await drainOneByOne(includesDependencies: true, items: 5)
        let failed = try #require(report.dependencies.first { !$0.outcome.isLoaded })
        #expect(weights.count == 5 && weights.reduce(0, +) + failed.progressWeight == total, "\(weights), \(failed.progressWeight) of \(total)")
        for step in steps {
            let done = Double(step.drained + failed.progressWeight) / Double(total)
            #expect(abs(step.fraction - (0.95 * done + 0.05)) < 1e-9, "\(step) of \(total)")
        }
    }
}
