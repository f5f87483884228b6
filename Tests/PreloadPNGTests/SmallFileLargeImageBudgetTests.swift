import Foundation
@_spi(Diagnostics) import Preload
import PreloadPNG
import PreloadTestSupport
import Testing

/// The memory budget with PNGs that are small on disk but large decoded. Small files share a
/// load, and the budget admits a load by the sum of its files' estimates: loads cut by file
/// size alone held six 64 MiB textures at once under an 80 MiB budget with one worker (peak
/// 402,653,184 bytes), and five backgrounds of 3.7 MB whatever the budget.
@Suite struct SmallFileLargeImageBudgetTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// `count` copies of the PNG `bytes`, `image-00.png`...
    private func copies(_ count: Int, of bytes: [UInt8]) throws -> [AssetRequest] {
        try (0..<count).map { index in
            let name = String(format: "image-%02d", index)
            return AssetRequest(path: try directory.write(name + ".png", bytes), name: name)
        }
    }

    /// Loads `requests` under `budget` on `workers` threads in completion order, the engine
    /// draining the hand-off every 16 ms (a frame) and releasing each CPU copy.
    private func load(_ requests: [AssetRequest], budget: Int, workers: Int) async throws -> (PreloadReport, [String]) {
        let handOff = AssetHandOff(releasesCPUCopies: true)
        let stop = Locked(false)
        let taken = Recorder<String>()
        handOff.drainOnAThread(until: stop, pause: 0.016) { item in
            taken.append(item.name)
            return (item.asset as? Texture)?.width
        }
        defer { stop.withLock { $0 = true } }
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(maxConcurrentLoads: workers))
        let report = try await coordinator.start(
            requests,
            options: PreloadOptions(
                assetEventOrder: .completion, handOff: handOff, completesAfterHandOff: true, memoryBudget: budget)
        ).finished()
        return (report, taken.all)
    }

    /// 24 one-colour 4096x4096 PNGs (about 70 KB of file, 64 MiB of pixels each) under 80 MiB:
    /// one texture at a time, whatever the workers.
    @Test(arguments: [1, 2]) func texturesOf64MiBFromTinyFilesStayWithinTheBudget(workers: Int) async throws {
        let side = 4096
        let png = PNGFixture.rgba(width: side, height: side, pixels: [UInt8](repeating: 0x5A, count: side * side * 4))
        #expect(png.count < 1 << 20, "small on disk: \(png.count) bytes")
        let requests = try copies(24, of: png)
        let budget = 80 << 20
        let (report, taken) = try await load(requests, budget: budget, workers: workers)
        #expect(report.everythingLoaded && report.loaded.count == 24)
        #expect(taken.sorted() == requests.map(\.name), "every texture reached the engine once")
        #expect(report.peakHeldBytes <= budget, "peak \(report.peakHeldBytes) over the budget \(budget)")
        #expect(report.peakHeldBytes == side * side * 4, "one texture at a time: \(report.peakHeldBytes)")
    }

    /// 40 copies of the sample's forest background (74 KB of file, 1280x720: 3,686,400 bytes of
    /// pixels) under budgets of one to four of them.
    @Test(arguments: [1, 2], [4_000_000, 7_000_000, 10_000_000, 16 << 20])
    func backgroundsStayWithinTheBudget(workers: Int, budget: Int) async throws {
        let forest = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.forestPath)))
        let requests = try copies(40, of: forest)
        let (report, taken) = try await load(requests, budget: budget, workers: workers)
        #expect(report.everythingLoaded && report.loaded.count == 40)
        #expect(taken.count == 40)
        #expect(report.peakHeldBytes <= budget, "peak \(report.peakHeldBytes) over the budget \(budget), \(workers) worker(s)")
        #expect(report.peakHeldBytes >= 3_686_400, "at least one background was held")
    }

    /// Tiny sprites still share loads under a budget: their decoded sizes fill no share of it.
    @Test func tinySpritesStillShareLoadsUnderABudget() async throws {
        let requests = try copies(200, of: PNGFixture.rgba(width: 16, height: 16, pixels: PNGFixture.noise(width: 16, height: 16)))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(maxConcurrentLoads: 2))
        let report = try await coordinator.start(requests, options: PreloadOptions(memoryBudget: 1 << 20)).finished()
        #expect(report.everythingLoaded)
        #expect(report.diagnostics.loads == 8, "200 sprites in loads of 25 (a quarter of each worker's), not \(report.diagnostics.loads)")
    }

    /// `sample-assets/backgrounds/forest.png` in this checkout.
    static let forestPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-assets/backgrounds/forest.png").path
}
