import Dispatch
import Preload

/// Collects values across threads, in arrival order, and wakes whoever waits for them.
public final class Recorder<Value: Sendable>: Sendable {
    private struct Waiter {
        let isSatisfied: @Sendable ([Value]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var values: [Value] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    /// An empty recorder.
    public init() {}

    /// Records `value` (from any thread) and wakes the waiters it satisfies.
    public func append(_ value: Value) {
        let satisfied = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.values.append(value)
            let values = state.values
            let ready = state.waiters.filter { $0.value.isSatisfied(values) }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in satisfied { continuation.resume(returning: true) }
    }

    /// Every value recorded so far, in arrival order.
    public var all: [Value] { state.withLock { $0.values } }

    /// Suspends until the values recorded so far satisfy `condition` (checked now and on every
    /// append); `false` if `seconds` pass first (a guard against a hang, never the way to pass)
    /// or the task is cancelled.
    public func wait(seconds: Double = 60, until condition: @escaping @Sendable ([Value]) -> Bool) async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = state.withLock { state -> Bool in
                    if condition(state.values) || Task.isCancelled { return true }
                    state.waiters[id] = Waiter(isSatisfied: condition, continuation: continuation)
                    return false
                }
                if now { return continuation.resume(returning: condition(all)) }
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.giveUp(id) }
            }
        } onCancel: {
            giveUp(id)
        }
    }

    /// Suspends until at least `count` values were recorded; `false` if `seconds` pass first.
    public func wait(forCount count: Int, seconds: Double = 60) async -> Bool {
        await wait(seconds: seconds) { $0.count >= count }
    }

    /// Resumes waiter `id` with `false`, unless it was resumed already.
    private func giveUp(_ id: Int) {
        let waiter = state.withLock { state in state.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: false)
    }
}
