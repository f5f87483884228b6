/// Carries a cancellation to something that may not exist yet: a task cancellation handler can
/// run before the batch, run or wait it should cancel has been created. Whichever comes second,
/// the handle or the cancellation, cancels it, exactly once.
package final class CancellationRelay<Handle: Sendable>: Sendable {
    private struct State {
        var handle: Handle?
        var cancelled = false
        var delivered = false
    }

    private let state = PreloadMutex(State())
    private let cancelHandle: @Sendable (Handle) -> Void

    /// `cancel` is how a handle is cancelled; it runs at most once, outside the lock.
    package init(cancel: @escaping @Sendable (Handle) -> Void) {
        cancelHandle = cancel
    }

    /// Keeps `handle`; cancels it now if the cancellation came first.
    package func hold(_ handle: Handle) {
        let deliver = state.withLock { state -> Bool in
            state.handle = handle
            return claim(&state)
        }
        if deliver { cancelHandle(handle) }
    }

    /// Cancels the handle if there is one; otherwise the handle is cancelled when it arrives.
    package func cancel() {
        let handle = state.withLock { state -> Handle? in
            state.cancelled = true
            return claim(&state) ? state.handle : nil
        }
        if let handle { cancelHandle(handle) }
    }

    private func claim(_ state: inout State) -> Bool {
        guard state.cancelled, state.handle != nil, !state.delivered else { return false }
        state.delivered = true
        return true
    }
}
