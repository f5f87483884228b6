import PreloadConcurrency
import Synchronization

/// Where a batch spent time that does not shrink with more workers: what ran on one thread
/// (the planning thread's own steps, outside the part spread over the workers) and what ran
/// under a lock every worker takes (the batch's, the store's, the memory pool's). With the number of loads queued
/// (corelibs' queue schedules operations one at a time), it bounds how far the batch can scale:
/// `speedup(N) = 1 / (s + (1 - s) / N)` with `s` this time's share of the work.
///
/// For benchmarks and tuning (`import` with `@_spi(Diagnostics)`); not part of the stable API.
@_spi(Diagnostics) public struct BatchDiagnostics: Sendable, Hashable {
    /// Time the planning thread spent on its own (before and after the part spread over the
    /// workers, and planning requests that declare dependencies).
    public var planningThread: Duration = .zero
    /// Time the batch's lock was held, summed over every acquisition.
    public var batchLockHeld: Duration = .zero
    /// Time the asset store's locks were held for this batch's assets, over all its shards
    /// (``AssetStore/shards``, used in parallel).
    public var storeLockHeld: Duration = .zero
    /// Time the memory pool's locks were held while the batch ran (by any load of the pool's),
    /// over all its shards (``AssetMemory/shards``, used in parallel).
    public var memoryLockHeld: Duration = .zero
    /// Operations queued: loads, and the completion with its fan-in.
    public var queuedOperations = 0
    /// Loads queued: each a `LoadOperation` covering one file or several.
    public var loads = 0
    /// Distinct assets planned.
    public var assets = 0

    /// What runs one at a time with `workers` threads, except the queue's own scheduling: the
    /// planning thread's and the batch lock's time, and the sharded locks' time spread over as
    /// many shards as there are threads to use them.
    public func serialTime(workers: Int) -> Duration {
        planningThread + batchLockHeld + storeLockHeld / min(max(workers, 1), AssetStore.shards)
            + memoryLockHeld / min(max(workers, 1), AssetMemory.shards)
    }
}

@_spi(Diagnostics) extension PreloadReport {
    /// Where the batch spent time that does not shrink with more workers.
    public var diagnostics: BatchDiagnostics { serialWork }
}
