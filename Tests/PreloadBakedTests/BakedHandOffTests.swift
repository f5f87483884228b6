import Foundation
import Preload
import PreloadBaked
import PreloadConcurrency
import PreloadTestSupport
import Testing

/// The engine hand-off and the memory budget with a baked pack: its textures are views into the
/// mapping, counted by their size like decoded ones, and handed over in request order.
@Suite struct BakedHandOffTests {
    @Test func bakedTexturesAreHandedOverInOrderUnderABudget() async throws {
        let directory = try TemporaryDirectory()
        let pack = try await BakedFixtures.noisePack(count: 6, side: 128, prefix: "big", in: directory)

        let handOff = AssetHandOff(releasesCPUCopies: true)
        let uploaded = Recorder<String>()
        let stop = Locked(false)
        defer { stop.withLock { $0 = true } }
        handOff.drainOnAThread(until: stop, maxItems: 1) { item in
            let texture = item.asset as! Texture
            #expect(texture.pixels.isMapped, "the engine gets a view into the pack")
            uploaded.append(item.name)
            return texture.width
        }
        let coordinator = try PreloadCoordinator(plugins: BakedFixtures.plugins(), configuration: .init(maxConcurrentLoads: 2))
        let report = try await coordinator.start(
            [AssetRequest(path: pack)],
            options: PreloadOptions(assetEventOrder: .request, handOff: handOff, completesAfterHandOff: true, memoryBudget: 200 << 10)
        ).finished()
        #expect(report.loaded.count == 6, "\(report.errors)")
        #expect(uploaded.all == (0..<6).map { "art/big-\($0).png" }, "handed over in request order")
        // Mapped bytes count as the asset's size: at most one load over the budget.
        #expect(report.peakHeldBytes > 0 && report.peakHeldBytes <= (200 << 10) + (64 << 10), "\(report.peakHeldBytes)")
        // Once handed over, the store keeps the engine's handle, not the pixels.
        #expect(coordinator.assets.texture(named: "art/big-0.png") == nil)
        #expect(coordinator.assets.handle(named: "art/big-0.png", as: Int.self) == 128)
    }
}
