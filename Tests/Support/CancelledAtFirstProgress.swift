import Foundation
import Preload

#if canImport(Glibc)
    import Glibc
#endif

extension PreloadCoordinator {
    /// Starts `requests` and cancels the batch the moment a load reports progress: how a
    /// plugin's test proves it stops between chunks of its work.
    ///
    /// It races the load: a load that ends within the moment the cancel takes is not stopped.
    /// For an image decoder, ``HeldAtFirstProgressLoader`` holds the decode until the cancel
    /// instead; this is for other kinds of load, given work long enough (seconds).
    ///
    /// A thread of its own watches the batch's progress (read under the batch's lock, as the
    /// decode reports it), so the cancel waits for no Dispatch worker: a progress hook runs on
    /// the hooks' queue, and on a loaded machine, with other tests' loads holding Dispatch's
    /// threads, it ran after the whole decode was over. The progress hook cancels too, whichever
    /// comes first.
    ///
    /// ```swift
    /// import Preload
    /// import PreloadPNG
    /// import PreloadTestSupport
    /// import Testing
    ///
    /// @Test func decodeStopsBetweenRows() async throws {
    ///     let directory = try TemporaryDirectory("rows")
    ///     let big = try directory.write("big.png", PNGFixture.noise(width: 2048, height: 2048))
    ///     let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
    ///     let report = try await coordinator.startCancelledAtFirstProgress([AssetRequest(path: big)]).finished()
    ///     #expect(report.cancelled.count == 1 && report.wasCancelled)
    /// }
    /// ```
    public func startCancelledAtFirstProgress(_ requests: [AssetRequest]) -> PreloadBatch {
        let held = Locked<PreloadBatch?>(nil)
        let batch = start(
            requests, options: PreloadOptions(progressInterval: .zero),
            hooks: PreloadHooks(onProgress: { progress in
                if progress.fractionCompleted > 0 && !progress.isFinished { held.withLock { $0 }?.cancel() }
            }))
        held.withLock { $0 = batch }
        let watcher = Thread {
            // Bounded by the batch: it ends when the batch is cancelled or finished.
            while !batch.isCancelled && !batch.isFinished {
                let progress = batch.progress
                if progress.fractionCompleted > 0 && !progress.isFinished {
                    batch.cancel()
                    return
                }
                sched_yield()
            }
        }
        watcher.start()
        return batch
    }
}
