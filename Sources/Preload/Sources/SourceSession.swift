import PreloadConcurrency

/// What an ``AssetSource`` reports to, and is stopped by, while it prepares files (a
/// ``RemoteFetching`` while it fetches): byte progress for the batch's bar, and the batch's
/// cancellation.
///
/// A batch makes one for its sources: the bytes reach its progress (downloading and loading
/// share one byte-weighted bar) and its ``PreloadBatch/cancel()`` reaches the source's
/// transfers at once, through ``onCancel(_:)``. Outside a batch (a command that only downloads)
/// make one with a progress closure and cancel it yourself.
public final class SourceSession: Sendable {
    private struct State {
        var isCancelled = false
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextHandler = 0
    }

    private let state = PreloadMutex(State())
    private let progress: @Sendable (_ expected: Int64, _ received: Int64) -> Void

    /// A session whose byte counts go to `onProgress`: bytes newly expected (a file whose size
    /// became known adds it) and bytes newly received (from the network or the cache).
    public init(onProgress: @escaping @Sendable (_ expected: Int64, _ received: Int64) -> Void = { _, _ in }) {
        progress = onProgress
    }

    /// Whether the session is cancelled: a source stops and fails what it has not finished.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Cancels the session: every handler given to ``onCancel(_:)`` runs once, now.
    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isCancelled else { return [] }
            state.isCancelled = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Runs `handler` when the session is cancelled (at once if it already is); returns a token
    /// for ``removeCancelHandler(_:)``, for a transfer that ended first.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int {
        let token = state.withLock { state -> Int? in
            guard !state.isCancelled else { return nil }
            state.nextHandler += 1
            state.handlers[state.nextHandler] = handler
            return state.nextHandler
        }
        guard let token else {
            handler()
            return 0
        }
        return token
    }

    /// Forgets the handler ``onCancel(_:)`` returned `token` for.
    public func removeCancelHandler(_ token: Int) {
        _ = state.withLock { $0.handlers.removeValue(forKey: token) }
    }

    /// `bytes` more are expected: a file's size became known (from a catalog, or the response's
    /// length), or differs from what was said before (negative to take some back).
    public func expect(_ bytes: Int64) {
        if bytes != 0 { progress(bytes, 0) }
    }

    /// `bytes` more arrived, from the network or the cache.
    public func receive(_ bytes: Int64) {
        if bytes != 0 { progress(0, bytes) }
    }
}

/// ``SourceSession``, by its name from when only remote files had one.
@available(*, deprecated, renamed: "SourceSession")
public typealias RemoteFetchSession = SourceSession
