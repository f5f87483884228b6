import PreloadConcurrency
import Synchronization

/// The batch's one lock, timing how long each holder keeps it (two clock reads per
/// acquisition; acquisitions are per chunk and per load, not per file) and keeping which thread
/// holds it (``isHeldByCurrentThread``: what the engine's rules are checked with).
struct BatchLock: ~Copyable, Sendable {
    private let mutex: PreloadMutex<BatchState>
    /// The holder's ``ThreadIdentity`` (0 while the lock is free).
    private let holder = Atomic<UInt>(0)

    init(_ state: consuming sending BatchState) {
        mutex = PreloadMutex(state)
    }

    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending BatchState) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (state: inout sending BatchState) throws(E) -> sending Result in
            let acquired = ContinuousClock.now
            holder.store(ThreadIdentity.current.raw, ordering: .relaxed)
            defer {
                holder.store(0, ordering: .relaxed)
                state.diagnostics.batchLockHeld += ContinuousClock.now - acquired
            }
            return try body(&state)
        }
    }

    /// Whether the calling thread holds the lock now.
    var isHeldByCurrentThread: Bool { holder.load(ordering: .relaxed) == ThreadIdentity.current.raw }
}
