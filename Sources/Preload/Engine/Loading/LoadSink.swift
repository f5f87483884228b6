/// What a load tells its batch: the only three things it can.
enum LoadEvent: Sendable {
    /// The asset numbered `asset` is `fraction` done.
    case progressed(asset: Int, fraction: Double)
    /// An asset failed (under fail-fast the batch is cancelled at once, not when the load ends).
    case failed
    /// The load's assets are done: sent once, before the load's `isFinished` turns true.
    case finished([FinishedAsset])
}

/// Where a load sends what happened (``LoadEvent``), and nothing else: it cannot read or change
/// its batch, call the recorder's other methods or reach another load. Sending is a plain call
/// to the recorder's ``BatchRecorder/receive(_:)`` on the load's own thread (a lock taken there,
/// not a serial executor: `docs/architecture.md` says why), which returns once the event is
/// recorded: a finished load's assets stored, then its outcomes and outlets under the batch's lock.
struct LoadSink: Sendable {
    private let deliver: @Sendable (LoadEvent) -> Void

    init(_ deliver: @escaping @Sendable (LoadEvent) -> Void) {
        self.deliver = deliver
    }

    func send(_ event: LoadEvent) {
        deliver(event)
    }
}
