import PreloadConcurrency

/// The batch's one lock, timing how long each holder keeps it (two clock reads per
/// acquisition; acquisitions are per chunk and per load, not per file).
struct BatchLock: ~Copyable, Sendable {
    private let mutex: PreloadMutex<BatchState>

    init(_ state: consuming sending BatchState) {
        mutex = PreloadMutex(state)
    }

    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending BatchState) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (state: inout sending BatchState) throws(E) -> sending Result in
            let acquired = ContinuousClock.now
            defer { state.diagnostics.batchLockHeld += ContinuousClock.now - acquired }
            return try body(&state)
        }
    }
}
