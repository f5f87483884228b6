import Dispatch
import Foundation
import Preload
import PreloadTestSupport
import Testing

/// The order a game relies on: when ``PreloadBatch/isFinished`` is true, the completion handler
/// given to `preload(_:options:completion:)` has run.
@Suite struct CompletionOrderTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A completion handler held inside: the batch has its report, but is not finished until the
    /// handler returns. Deterministic: the handler cannot return before the test lets it.
    @Test func isFinishedWaitsForTheCompletionHandlerToReturn() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()])
        let request = AssetRequest(path: try directory.write("a.txt", text: "alpha"))
        let entered = DispatchSemaphore(value: 0)
        let leave = DispatchSemaphore(value: 0)
        let sawFinishedInside = Locked<Bool?>(nil)
        let batch = Locked<PreloadBatch?>(nil)
        batch.withLock { held in
            held = coordinator.preload([request]) { _ in
                sawFinishedInside.withLock { $0 = batch.withLock { $0 }?.isFinished }
                entered.signal()
                _ = leave.wait(timeout: .now() + 30)
            }
        }
        let running = try #require(batch.withLock { $0 })
        // Observed on a thread of its own, right when the handler is inside: the cooperative
        // threads an async test resumes on may be busy for longer than the handler waits.
        let inside = await Self.onThread { () -> (entered: Bool, hasReport: Bool, isFinished: Bool) in
            defer { leave.signal() }
            guard entered.wait(timeout: .now() + 30) == .success else { return (false, false, false) }
            return (true, running.report != nil, running.isFinished)
        }
        #expect(inside.entered, "the completion handler ran")
        #expect(inside.hasReport, "the report is made before the handler runs")
        #expect(!inside.isFinished, "the handler has not returned: not finished")
        let report = try await running.finished()
        #expect(running.isFinished && report.everythingLoaded)
        #expect(sawFinishedInside.withLock { $0 } == false, "inside the handler it still reads false")
    }

    /// Many batches, each polled from the moment it starts: whenever `isFinished` first reads
    /// true, the handler's effect is already there. Before the order was fixed this read true
    /// while the handler had not run in some of these batches.
    @Test func whenIsFinishedTheHandlerHasRun() async throws {
        let coordinator = try PreloadCoordinator(plugins: [TextLoader()], configuration: .init(maxConcurrentLoads: 2))
        let requests = try (0..<4).map { AssetRequest(path: try directory.write("f\($0).txt", text: "text \($0)")) }
        var early = 0
        for _ in 0..<200 {
            let handled = Locked(false)
            let batch = coordinator.preload(requests) { _ in handled.withLock { $0 = true } }
            let deadline = ContinuousClock.now + .seconds(120)
            while !batch.isFinished {
                try #require(ContinuousClock.now < deadline, "the batch never finished")
                await Task.yield()
            }
            if !handled.withLock({ $0 }) { early += 1 }
            _ = try await batch.finished()
        }
        #expect(early == 0, "isFinished read true before the completion handler had run in \(early) of 200 batches")
    }

    /// Runs `body` on a thread of its own (async tests must not block theirs) and returns its result.
    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}
