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
    /// the first lasting until the budget logs that a load is waiting for room (the texture holds
    /// the budget until its upload returns): that load waits, and its timings say so. (Uploads
    /// of a fixed length were not: CI saw 200 ms and 500 ms pass with no wait, and beside eight
    /// busy loops, 3 s.)
    @Test func loadsThatWaitedForTheBudgetSaySo() async throws {
        let side = 2048
        let png = PNGFixture.rgba(width: side, height: side, pixels: [UInt8](repeating: 0x33, count: side * side * 4))
        let requests = try (0..<4).map { AssetRequest(path: try directory.write("t\($0).png", png), name: "t\($0)") }
        let handOff = AssetHandOff(releasesCPUCopies: true)
        let stop = Locked(false)
        let uploads = Locked(0)
        let waiting = LoggedMessage("load waits for the memory budget")
        let heardTheWait = Locked(false)
        handOff.drainOnAThread(until: stop) { item in
            // The first upload lasts until a load after it has asked for room and been told to
            // wait (the budget logs it): an event, however late a busy machine starts that load.
            let first = uploads.withLock { count in
                count += 1
                return count == 1
            }
            if first, waiting.wait(seconds: 120) { heardTheWait.withLock { $0 = true } }
            return (item.asset as? Texture)?.width
        }
        defer { stop.withLock { $0 = true } }
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(maxConcurrentLoads: 1, logger: waiting.logger))
        let report = try await coordinator.start(
            requests, options: PreloadOptions(handOff: handOff, completesAfterHandOff: true, memoryBudget: 20 << 20)
        ).finished()
        #expect(report.everythingLoaded && report.loaded.count == 4)
        #expect(heardTheWait.withLock { $0 }, "no load asked the budget for room during the first upload")
        let waited = report.loaded.compactMap { report.timings(of: $0) }.filter { $0.waitingForMemory > .zero }
        let all = report.loaded.map { report.timings(of: $0).map { "\($0)" } ?? "none" }
        #expect(!waited.isEmpty, "a load waited for the texture before it to be handed over: \(all)")
        for timings in waited { #expect(timings.waitingForMemory < .seconds(60)) }
    }
}
