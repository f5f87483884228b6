import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// The hand-off and the memory budget in request order with an atlas, whose sprite loads would
/// otherwise be planned after the plain files that follow it in the request list.
@Suite struct AtlasHandOffTests {
    @Test func inRequestOrderAnAtlasSpritesLoadBeforeTheFilesAfterItAndTheBudgetHolds() async throws {
        let directory = try TemporaryDirectory()
        for name in ["hero", "bat"] {
            try directory.write("level.atlas/\(name).png", PNGFixture.rgba(width: 64, height: 64, pixels: PNGFixture.noise(width: 64, height: 64)))
        }
        var requests = [AssetRequest(path: directory.file("level.atlas"), name: "level")]
        for index in 0..<6 {
            let pixels = PNGFixture.noise(width: 256, height: 256, seed: UInt64(index) + 1)  // 256 KiB each
            requests.append(AssetRequest(path: try directory.write("big-\(index).png", PNGFixture.rgba(width: 256, height: 256, pixels: pixels))))
        }
        // In request order the atlas goes first: its sprites are queued before the big files, so
        // that those, which wait for it, do not fill the budget first (and then never let it in).
        let handOff = AssetHandOff(releasesCPUCopies: true)
        let stop = Locked(false)
        defer { stop.withLock { $0 = true } }
        handOff.drainOnAThread(until: stop, pause: 0.002) { _ in 1 }
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(maxConcurrentLoads: 2))
        let report = try await coordinator.start(
            requests,
            options: PreloadOptions(assetEventOrder: .request, handOff: handOff, completesAfterHandOff: true, memoryBudget: 600 << 10)
        ).finished()
        #expect(report.loaded.count == 7)
        // Everything counts, waiting or not; at most one load goes over, to free a worker.
        #expect(report.peakHeldBytes > 0 && report.peakHeldBytes <= (600 << 10) + (256 << 10), "\(report.peakHeldBytes)")
    }
}
