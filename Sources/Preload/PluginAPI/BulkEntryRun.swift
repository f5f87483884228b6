/// Entries of one file a ``BulkExpandingPlugin`` loads together, in one call of
/// ``BulkExpandingPlugin/loadEntries(_:)``: the plugin opens the file once, then hands
/// ``loadEach(_:)`` how to load one entry.
///
/// The batch stays in charge of each entry: ``loadEach(_:)`` makes each one's ``LoadContext``
/// (its request, warnings, progress, cancellation), times it, stops between entries when the
/// batch is cancelled (those not reached are reported cancelled) and records its outcome as
/// loading it alone would. Use a run only inside the call it was handed to.
public final class BulkEntryRun {
    /// The file's path, as ``BulkEntries/container`` named it.
    public let container: String
    /// The file as planning found it (`stat`'s facts): what the plugin may check the file it
    /// opens against, as a ``PlannedRequest/file`` of one of its entries would be.
    public var containerFacts: FileFacts { expansion.facts }
    private let expansion: BulkExpansion
    /// How each entry is loaded and recorded, as an item loaded alone is.
    private let loading: ItemLoading
    private let items: [LoadItem]
    /// The run's items, and the first one not yet loaded.
    private let range: Range<Int>
    private var next: Int
    private var started: ContinuousClock.Instant
    private let thread: ThreadIdentity
    private let waited: Duration
    /// What happened to the load's items so far: the load's own list, moved in for the run and
    /// back out after it (no copy).
    var finished: [FinishedAsset] = []

    init(
        expansion: BulkExpansion, loading: ItemLoading, items: [LoadItem], range: Range<Int>, started: ContinuousClock.Instant,
        thread: ThreadIdentity, waited: Duration
    ) {
        container = expansion.entries.container
        self.expansion = expansion
        self.loading = loading
        self.items = items
        self.range = range
        next = range.lowerBound
        self.started = started
        self.thread = thread
        self.waited = waited
    }

    /// How many entries the run holds.
    public var count: Int { range.count }

    /// The entries' positions (``BulkEntries/positions``), in the order ``loadEach(_:)`` hands
    /// them over: to read a file in the order its entries lie, say.
    public var positions: [Int] { items[range].map { expansion.position(of: $0.asset - expansion.first) } }

    /// Whether the batch is being cancelled: ``loadEach(_:)`` stops at the next entry.
    public var isCancelled: Bool { loading.isCancelled }

    /// Loads each entry of the run not loaded yet, in order, by `load`: given the entry's
    /// position (``BulkEntries/positions``) and its ``LoadContext``, it returns the entry's asset
    /// or throws its failure (which fails that entry alone). Stops when the batch is cancelled.
    public func loadEach(_ load: (_ position: Int, _ context: LoadContext) throws -> any Asset) {
        // Locals, not the run's stored properties, in the loop: no exclusivity check and no
        // copy of an item per entry.
        let items = self.items, expansion = self.expansion, loading = self.loading
        var next = self.next, started = self.started, finished = self.finished
        self.finished = []
        defer { (self.next, self.started, self.finished) = (next, started, finished) }
        while next < range.upperBound, !loading.isCancelled {
            let position = expansion.position(of: items[next].asset - expansion.first)
            started = loading.load(items[next], started: started, thread: thread, waited: waited, into: &finished) { context in
                try load(position, context)
            }
            next += 1
        }
    }

    /// The items the plugin did not load, and when the last one it did load ended.
    var rest: (items: ArraySlice<LoadItem>, from: ContinuousClock.Instant) { (items[next..<range.upperBound], started) }
}
