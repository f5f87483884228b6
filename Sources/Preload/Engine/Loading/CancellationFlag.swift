import Synchronization

/// A batch's cancellation, as its loads see it: a flag the batch sets once, before it tells
/// anything else, and loads read between files and decoders between chunks (an atomic load, no lock).
final class CancellationFlag: Sendable {
    private let raised = Atomic(false)

    /// Whether the batch is being cancelled.
    var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// Raises the flag (the batch does once).
    func raise() {
        raised.store(true, ordering: .releasing)
    }
}
