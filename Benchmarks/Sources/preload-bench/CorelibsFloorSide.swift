import BenchSupport
import Foundation
import Synchronization

/// The least one queued `Operation` per file can cost on corelibs Foundation: a minimal
/// asynchronous operation (two booleans behind a `Mutex`, the KVO-style announcements corelibs
/// needs, no work) per file, on a plain `OperationQueue` as wide as the pipeline's, with the
/// same two-level fan-in into one completion operation. No Preload code runs.
///
/// A preloader that queues one operation per file pays at least this on top of the decoding, so
/// `bare / (bare + floor)` bounds its ratio to the bare loop on the same corpus.
struct CorelibsFloorSide {
    let count: Int
    let jobs: Int

    func measure() -> RunMeasurement {
        runQueued(jobs: jobs) { (0..<count).map { _ in MinimalAsyncOperation() } }
    }
}

/// An asynchronous operation that finishes as soon as it starts.
private final class MinimalAsyncOperation: Operation, @unchecked Sendable {
    private let state = Mutex((executing: false, finished: false))

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { state.withLock { $0.executing } }
    override var isFinished: Bool { state.withLock { $0.finished } }

    override func start() {
        willChangeValue(forKey: "isExecuting")
        state.withLock { $0.executing = true }
        didChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        state.withLock { $0 = (executing: false, finished: true) }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}
