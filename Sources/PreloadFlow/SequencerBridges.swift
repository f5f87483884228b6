import Preload
import PreloadConcurrency
import Dispatch
import Synchronization

extension Sequencer {
    /// Resolves `key` when `batch` completes with everything loaded; otherwise fails it with
    /// the batch's `PreloadFailure`. Asset loading and the steps around it share one graph.
    public func resolve(_ key: Key, whenFinished batch: PreloadBatch) {
        batch.whenFinished { [self] report in
            if report.everythingLoaded {
                resolve(key)
            } else {
                fail(key, with: PreloadFailure(report: report))
            }
        }
    }

    /// Suspends until every key in `keys` is resolved; throws the error of the first of them
    /// that fails, or `CancellationError` if the task is cancelled first.
    public func waitUntilResolved(_ keys: [Key]) async throws {
        let wait = SequencerWait<Key>(sequencer: self)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard wait.start(continuation) else { return }
                let id = add(
                    dependencies: keys, label: "waitUntilResolved", action: { wait.resume(.success(())) },
                    onFailure: { _, error in wait.resume(.failure(error)) })
                wait.registered(id)
            }
        } onCancel: {
            wait.cancel()
        }
    }
}

/// One ``Sequencer/waitUntilResolved(_:)``: its continuation, resumed exactly once, and the
/// action to remove if the task is cancelled first.
private final class SequencerWait<Key: Hashable & Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var action: Sequencer<Key>.ActionID?
        var cancelled = false
    }

    private let sequencer: Sequencer<Key>
    private let state = PreloadMutex(State())

    init(sequencer: Sequencer<Key>) {
        self.sequencer = sequencer
    }

    /// Keeps `continuation`; returns `false` (having resumed it) if the task was already cancelled.
    func start(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            state.continuation = continuation
            return state.cancelled
        }
        if cancelled { resume(.failure(CancellationError())) }
        return !cancelled
    }

    func registered(_ action: Sequencer<Key>.ActionID) {
        let cancelled = state.withLock { state in
            state.action = action
            return state.cancelled
        }
        if cancelled { cancel() }
    }

    func cancel() {
        let action = state.withLock { state in
            state.cancelled = true
            return state.action
        }
        // Only if the action had not run (or failed) yet: otherwise it resumes, or has.
        if let action, sequencer.remove(action) { resume(.failure(CancellationError())) }
    }

    func resume(_ result: Result<Void, any Error>) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}
