/// How one asset of a ``LoadOperation`` ended, handed to the batch when the operation finishes.
///
/// Its outcome is kept in parts (how it ended, the asset, the error), so that the store and the
/// records read how it ended and take the asset without copying an ``AssetOutcome`` (an
/// `enum` holding an existential: looking at one where it is copied it whole, ~90 instructions
/// a look, three looks an asset; callgrind, issue 50).
struct FinishedAsset: Sendable {
    let asset: Int
    /// The request the asset was planned for (its store name and path, its plugin).
    let planned: PlannedRequest
    /// How it ended.
    let status: AssetRecords.Status
    /// The asset, when it loaded (``status`` is `.loaded`); else a placeholder of no bytes. Not
    /// an optional: the runtime copies an optional existential through its generic witnesses
    /// (~150 instructions a copy, two copies an asset: the store's and the records'; callgrind,
    /// issue 50).
    let loaded: any Asset
    /// Why it failed, when it did.
    let failure: AssetError?
    /// How long it took, in whole nanoseconds: written once, as ``AssetRecords`` keeps it
    /// (``AssetResult/duration``), not as a `Duration` converted by each reader.
    let nanoseconds: Int64
    /// When its plugin was called (or, for an asset that never ran, when the load passed it):
    /// with ``duration``, its span on a timeline.
    let started: ContinuousClock.Instant
    /// The thread its load ran it on (an asynchronous plugin's: the thread that called it).
    let thread: ThreadIdentity
    /// What the plugin warned about, for an asset that loaded.
    var warnings: [AssetWarning] = []
    /// What it counts against the batch's memory budget (0 without one).
    var decodedBytes = 0
    // Where its time went, in whole nanoseconds, as ``RecordedTimings`` keeps them (the decoding
    // is the rest of the duration): plain values written once by the load. It carried an
    // ``AssetTimings`` (four `Duration`s, converted by the timings outlet; issue 50).
    /// How long it waited in its load's queue, not counting the memory budget; negative: its
    /// plugin never ran (it was cancelled, or failed before it started).
    var queued: Int64 = -1
    /// How long its plugin spent reading its file.
    var reading: Int64 = 0
    /// How long its load waited for the memory budget.
    var waited: Int64 = 0

    init(
        asset: Int, planned: PlannedRequest, outcome: consuming AssetOutcome, duration: Duration, started: ContinuousClock.Instant,
        thread: ThreadIdentity, warnings: [AssetWarning] = [], decodedBytes: Int = 0
    ) {
        self.asset = asset
        self.planned = planned
        switch consume outcome {
        case .loaded(let loaded): (status, self.loaded, failure) = (.loaded, loaded, nil)
        case .failed(let error): (status, loaded, failure) = (.failed, NotLoaded(), error)
        case .cancelled: (status, loaded, failure) = (.cancelled, NotLoaded(), nil)
        }
        nanoseconds = duration.wholeNanoseconds
        self.started = started
        self.thread = thread
        self.warnings = warnings
        self.decodedBytes = decodedBytes
    }

    /// How long it took.
    var duration: Duration { Duration(wholeNanoseconds: nanoseconds) }
    /// Whether its plugin ran (it was not cancelled or failed before it started).
    var ran: Bool { queued >= 0 }

    /// What ``loaded`` holds for an asset that did not load.
    private struct NotLoaded: Asset {
        var kind: AssetKind { .data }
        var byteCount: Int { 0 }
    }

    /// How it ended, as one value (made when asked: the hot paths read ``status`` and ``loaded``).
    var outcome: AssetOutcome {
        switch status {
        case .loaded: .loaded(loaded)
        case .failed: .failed(failure!)
        case .cancelled, .open: .cancelled
        }
    }
}

extension FinishedAsset {
    /// How `item` (planned in `table`) ended without its plugin running.
    init(
        _ item: LoadItem, in table: PlannedTable, outcome: AssetOutcome, duration: Duration, started: ContinuousClock.Instant,
        thread: ThreadIdentity
    ) {
        self.init(asset: item.asset, planned: table.planned(item.asset), outcome: outcome, duration: duration, started: started, thread: thread)
        decodedBytes = item.decodedBytes
    }

    /// How `item`, planned as `planned`, ended, with the warnings its plugin recorded on
    /// `context` if it loaded, after `queued` in its load's queue and `waited` for the memory
    /// budget; its plugin was called at `started` on `thread`.
    init(
        _ item: borrowing LoadItem, planned: PlannedRequest, outcome: AssetOutcome, duration: Duration, started: ContinuousClock.Instant,
        thread: ThreadIdentity, context: LoadContext, queued: Duration, waited: Duration
    ) {
        self.init(asset: item.asset, planned: planned, outcome: outcome, duration: duration, started: started, thread: thread)
        decodedBytes = item.decodedBytes
        let reports = context.reports
        if outcome.isLoaded { warnings = reports.warnings }
        ranAfter(queued: queued, reading: reports.reading, waited: waited)
    }

    /// Its plugin ran, after `queued` in its load's queue and `waited` for the memory budget,
    /// reading its file for `reading`.
    mutating func ranAfter(queued: Duration, reading: Duration, waited: Duration) {
        self.queued = max(0, queued.wholeNanoseconds)
        self.reading = reading.wholeNanoseconds
        self.waited = waited.wholeNanoseconds
    }
}
