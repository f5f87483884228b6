import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// The hand-off and the memory budget with an atlas, whose sprite loads are planned after the
/// plain files that follow it in the request list.
@Suite struct AtlasHandOffTests {
    @Test func aBudgetFullOfAssetsWaitingTheirTurnDoesNotKeepOutTheOneTheyWaitFor() async throws {
        let directory = try TemporaryDirectory()
        for name in ["hero", "bat"] {
            try directory.write("level.atlas/\(name).png", PNGFixture.rgba(width: 64, height: 64, pixels: PNGFixture.noise(width: 64, height: 64)))
        }
        var requests = [AssetRequest(path: directory.file("level.atlas"), name: "level")]
        for index in 0..<3 {
            let pixels = PNGFixture.noise(width: 256, height: 256, seed: UInt64(index) + 1)  // 256 KiB each
            requests.append(AssetRequest(path: try directory.write("big-\(index).png", PNGFixture.rgba(width: 256, height: 256, pixels: pixels))))
        }
        // In request order the atlas goes first, but its sprites are planned (and loaded) after
        // the three big files, which then wait for it: uncounted while they wait, or the
        // sprites would never fit.
        let handOff = AssetHandOff(releasesCPUCopies: true)
        let stop = Locked(false)
        defer { stop.withLock { $0 = true } }
        handOff.drainOnAThread(until: stop, pause: 0.002) { _ in 1 }
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(maxConcurrentLoads: 2))
        let report = try await coordinator.start(
            requests,
            options: PreloadOptions(assetEventOrder: .request, handOff: handOff, completesAfterHandOff: true, memoryBudget: 600 << 10)
        ).finished(within: 30)
        #expect(report.loaded.count == 4)
        // Waiting their turn uncounted, the big files count again once queued: over the budget
        // then, but never by more than what waited.
        #expect(report.peakHeldBytes > 0 && report.peakHeldBytes <= (600 << 10) + 3 * (256 << 10), "\(report.peakHeldBytes)")
    }
}
