import Foundation
import Preload
import PreloadPNG
import PreloadTestSupport
import Testing

/// Per-asset timings (``PreloadReport/timings(of:)``): where each load's time went, queued,
/// waiting for the memory budget, reading and decoding.
@Suite struct AssetTimingsTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A noise PNG of about 1 MB (too large to be read ahead while planning) is read by its
    /// load: its reading and decoding make its duration; without a budget it never waited.
    @Test func aLoadedFileHasItsReadingAndDecoding() async throws {
        let large = try directory.write("large.png", PNGFixture.rgba(width: 512, height: 512, pixels: PNGFixture.noise(width: 512, height: 512)))
        let small = try directory.write("small.png", PNGFixture.rgba(width: 4, height: 4, pixels: [UInt8](repeating: 9, count: 64)))
        let missing = directory.path + "/missing.png"
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
        let report = try await coordinator.preload([AssetRequest(path: large), AssetRequest(path: small), AssetRequest(path: missing)])
        #expect(report.loaded.count == 2 && report.failed.count == 1)

        let largeResult = try #require(report.loaded.first { $0.request.path == large })
        let timings = try #require(report.timings(of: largeResult))
        #expect(timings.reading > .zero, "read by its load: \(timings)")
        #expect(timings.decoding > .zero)
        #expect(timings.reading + timings.decoding == largeResult.duration)
        #expect(timings.waitingForMemory == .zero && timings.queued >= .zero)

        let smallResult = try #require(report.loaded.first { $0.request.path == small })
        let smallTimings = try #require(report.timings(of: smallResult))
        #expect(smallTimings.reading == .zero, "read ahead while planning: \(smallTimings)")
        #expect(smallTimings.decoding == smallResult.duration)

        #expect(report.timings(of: report.failed[0]) == nil, "never loaded: no timings")
        let other = try await coordinator.preload([AssetRequest(path: small)])
        let unrelated = try await coordinator.preload([AssetRequest(path: large)])
        #expect(other.timings(of: unrelated.loaded[0]) == nil, "another batch's result gets none")
    }

    /// Four textures of 16 MiB each under a 20 MiB budget on one worker, the engine's upload of
    /// the first taking 3 s (the texture holds the budget until it returns): the load after it
    /// asks for room while it is still being uploaded, waits, and says so. (CI once saw three
    /// uploads of 200 ms pass with no wait, and the whole suite, sharing two cores, once saw
    /// three of 500 ms: each load there started half a second after the one before it.)
    @Test func loadsThatWaitedForTheBudgetSaySo() async throws {
        let side = 2048
        let png = PNGFixture.rgba(width: side, height: side, pixels: [UInt8](repeating: 0x33, count: side * side * 4))
        let requests = try (0..<4).map { AssetRequest(path: try directory.write("t\($0).png", png), name: "t\($0)") }
        let handOff = AssetHandOff(releasesCPUCopies: true)
        let stop = Locked(false)
        let uploads = Locked(0)
        handOff.drainOnAThread(until: stop) { item in
            // The upload's work: the first one long enough that the load after it asks for room
            // while it runs even when the whole suite shares the machine (there, the queue started
            // each load half a second late, and 500 ms uploads were over before it asked).
            let first = uploads.withLock { count in
                count += 1
                return count == 1
            }
            Thread.sleep(forTimeInterval: first ? 3 : 0.2)
            return (item.asset as? Texture)?.width
        }
        defer { stop.withLock { $0 = true } }
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(maxConcurrentLoads: 1))
        let report = try await coordinator.start(
            requests, options: PreloadOptions(handOff: handOff, completesAfterHandOff: true, memoryBudget: 20 << 20)
        ).finished(within: 120)
        #expect(report.everythingLoaded && report.loaded.count == 4)
        let waited = report.loaded.compactMap { report.timings(of: $0) }.filter { $0.waitingForMemory > .zero }
        let all = report.loaded.map { report.timings(of: $0).map { "\($0)" } ?? "none" }
        #expect(!waited.isEmpty, "a load waited for the texture before it to be handed over: \(all)")
        for timings in waited { #expect(timings.waitingForMemory < .seconds(60)) }
    }
}
