import Dispatch
import Foundation
import Preload

/// A batch that did not finish in time: a bug shows up as a failure instead of a hang.
public struct TimedOut: Error, CustomStringConvertible {
    /// How long the wait was.
    public let seconds: Double
    public var description: String { "batch did not finish within \(seconds) s" }
}

extension PreloadBatch {
    /// Waits for the batch without blocking a thread: async tests must not block the few
    /// cooperative threads that other tests' tasks need (on a 2-core machine under a sanitizer,
    /// blocked threads starved them). The default bound is generous: under ThreadSanitizer the
    /// whole suite shares 2 cores and the few dispatch threads, and a batch of 8 PNGs has
    /// waited 130 s for a thread on a quiet machine; on a busy one, 60 s after that was too few.
    public func finished(within seconds: Double = 300) async throws -> PreloadReport {
        try await withCheckedThrowingContinuation { continuation in
            let once = ResumeOnce(continuation)
            whenFinished { once.resume(.success($0)) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { once.resume(.failure(TimedOut(seconds: seconds))) }
        }
    }
}

/// Resumes a continuation the first time only.
private final class ResumeOnce: Sendable {
    private let continuation: Locked<CheckedContinuation<PreloadReport, Error>?>

    init(_ continuation: CheckedContinuation<PreloadReport, Error>) {
        self.continuation = Locked(continuation)
    }

    func resume(_ result: Result<PreloadReport, Error>) {
        let taken = continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        taken?.resume(with: result)
    }
}

extension DispatchSemaphore {
    /// Waits on a thread of its own, not on the caller's: an async test must not block one of
    /// the few cooperative threads that the task it waits for may need, nor one of the few
    /// dispatch threads the operations it waits for run on (on 2 cores, tests waiting on
    /// dispatch threads starved the very loads they waited for).
    public func waitWithoutBlocking(seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: self.wait(timeout: .now() + seconds) == .success)
            }
        }
    }
}

extension DispatchQueue {
    /// Returns once every block submitted to this queue before the call has run: a barrier on a
    /// concurrent queue of one's own, a plain block on a serial one (a global queue ignores
    /// barriers: not for those). A test that knows the code under test queues its callbacks
    /// here synchronously can then check that a callback that must not come did not.
    public func flushed() async {
        await withCheckedContinuation { continuation in async(flags: .barrier) { continuation.resume() } }
    }
}
