import PreloadConcurrency
import Synchronization

/// A batch's cancellation, as its loads see it: a flag the batch sets once, before it tells
/// anything else, and loads read between files and decoders between chunks (an atomic load, no
/// lock). What cannot poll (a download in flight) asks to be told: ``whenRaised(_:)``.
final class CancellationFlag: Sendable {
    private let raised = Atomic(false)
    private let handlers = PreloadMutex<[@Sendable () -> Void]?>([])

    /// Whether the batch is being cancelled.
    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// Raises the flag (the batch does once), then runs what asked to be told.
    func raise() {
        raised.store(true, ordering: .releasing)
        let waiting = handlers.withLock { handlers -> [@Sendable () -> Void] in
            defer { handlers = nil }
            return handlers ?? []
        }
        for handler in waiting { handler() }
    }

    /// Runs `handler` once when the flag is raised (now, if it already is).
    func whenRaised(_ handler: @escaping @Sendable () -> Void) {
        let added = handlers.withLock { handlers -> Bool in
            guard handlers != nil else { return false }
            handlers!.append(handler)
            return true
        }
        if !added { handler() }
    }
}
