import Dispatch
import Foundation
import Preload

/// A task executor that runs its jobs, in order, on a thread of its own instead of Swift's
/// cooperative pool. That pool is as wide as the machine has cores and takes jobs first come,
/// first served, and Swift Testing runs every test of the process at once, synchronous ones on
/// the pool too: a task a test starts, or a test's next step, waits behind every test body
/// queued before it, minutes on a loaded two-core machine. A task that must start before a
/// bounded wait ends runs here: `Task(executorPreference: thread) { ... }`.
///
/// The thread exists while there are jobs and ends at ``finish()`` once they are done; a job
/// that comes later starts a new one.
public final class OwnThreadExecutor: TaskExecutor, Sendable {
    private struct State: Sendable {
        var waiting: [UnownedJob] = []
        var hasThread = false
        var finishing = false
    }

    private let state = Locked(State())
    private let arrived = DispatchSemaphore(value: 0)

    /// An executor whose thread starts with its first job.
    public init() {}

    /// Queues `job` for the thread, starting the thread if it has none.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startsThread = state.withLock { state -> Bool in
            state.waiting.append(job)
            defer { state.hasThread = true }
            return !state.hasThread
        }
        if startsThread { Thread.detachNewThread { [self] in runJobs() } } else { arrived.signal() }
    }

    /// Lets the thread end once it has run every job it was given.
    public func finish() {
        state.withLock { $0.finishing = true }
        arrived.signal()
    }

    /// The thread's loop: every job in turn, then a wait for the next (it keeps `self` alive).
    private func runJobs() {
        while true {
            let next = state.withLock { state -> UnownedJob? in
                if !state.waiting.isEmpty { return state.waiting.removeFirst() }
                if state.finishing { state.hasThread = false }
                return nil
            }
            if let next {
                next.runSynchronously(on: asUnownedTaskExecutor())
            } else if state.withLock({ $0.hasThread }) {
                arrived.wait()
            } else {
                return
            }
        }
    }
}

/// Runs `body` on a thread of its own (an ``OwnThreadExecutor``, given to `body` for the tasks
/// it starts) while every thread of Swift's cooperative pool is held by a task that blocks, as
/// synchronous tests running beside it hold them, and releases the pool when `body` returns: what
/// `body` waits for must come without the pool. A test step that passes inside it cannot starve
/// when the suite runs in parallel on a loaded machine. Keep `body` to that step and return what
/// the rest of the test needs (a task `body` awaited that needs the pool would wait forever).
/// This is the one place tests block pool threads on purpose, briefly: every other test of the
/// process waits meanwhile.
///
/// ```swift
/// import Dispatch
/// import PreloadTestSupport
/// import Testing
///
/// @Test func aTaskStartsWhileThePoolIsBusy() async throws {
///     let started = DispatchSemaphore(value: 0)
///     let task = try await whileThePoolIsBusy { thread in
///         let task = Task(executorPreference: thread) { _ = started.signal() }
///         #expect(await started.waitWithoutBlocking(seconds: 60))
///         return task
///     }
///     await task.value
/// }
/// ```
public func whileThePoolIsBusy<T>(_ body: (OwnThreadExecutor) async throws -> T) async throws -> T {
    let thread = OwnThreadExecutor()
    defer { thread.finish() }
    return try await withTaskExecutorPreference(thread) {
        // As wide as the pool: Swift's global executor on Linux is a dispatch queue as wide as
        // the machine's logical CPUs.
        let width = max(1, sysconf(Int32(_SC_NPROCESSORS_CONF)))
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<width { Task.detached { holdPoolThread(holding: holding, until: release) } }
        defer { for _ in 0..<width { release.signal() } }
        for _ in 0..<width {
            // Each holder gets its thread once the test bodies queued before it are done.
            guard await holding.waitWithoutBlocking(seconds: 600) else { throw PoolNeverHeld() }
        }
        return try await body(thread)
    }
}

/// The pool's threads were never all held: the tests queued before the holders took longer
/// than the wait's guard.
public struct PoolNeverHeld: Error, CustomStringConvertible {
    public var description: String { "the cooperative pool's threads were not all held within 600 s" }
}

/// Blocks the calling pool thread until `release` is signalled, after signalling `holding`.
private func holdPoolThread(holding: DispatchSemaphore, until release: DispatchSemaphore) {
    holding.signal()
    release.wait()
}
