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
    /// The plugin that loads the run's entries: the bulk plugin, or (for a plugin that
    /// ``BulkLoadingPlugin/readsEntriesForOtherPlugins``) the one planning gave them to.
    private let plugin: RegisteredPlugin
    /// How each entry is loaded and recorded, as an item loaded alone is.
    private let loading: ItemLoading
    private let items: LoadItems
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
        expansion: BulkExpansion, plugin: RegisteredPlugin, loading: ItemLoading, items: LoadItems, range: Range<Int>,
        started: ContinuousClock.Instant, thread: ThreadIdentity, waited: Duration
    ) {
        container = expansion.entries.container
        self.expansion = expansion
        self.plugin = plugin
        self.loading = loading
        self.items = items
        self.range = range
        next = range.lowerBound
        self.started = started
        self.thread = thread
        self.waited = waited
    }

    /// The identifier of the plugin that loads the run's entries: the bulk plugin's own, or
    /// (when it ``BulkLoadingPlugin/readsEntriesForOtherPlugins``) another's, whose entries only
    /// ``loadEach(reading:)`` loads.
    public var loader: String { plugin.identifier }

    /// How many entries the run holds.
    public var count: Int { range.count }

    /// The entries' positions (``BulkEntries/positions``), in the order ``loadEach(_:)`` hands
    /// them over: to read a file in the order its entries lie, say.
    public var positions: [Int] { items[range].map { expansion.position(of: $0.asset - expansion.first) } }

    /// Whether the batch is being cancelled: ``loadEach(_:)`` stops at the next entry.
    public var isCancelled: Bool { loading.isCancelled }

    /// Loads each entry of the run not loaded yet, in order, by `load` (a run of the plugin's
    /// own entries: ``loader`` is its identifier; a run of another plugin's is left unloaded, each
    /// entry failing as not loaded): given the entry's position (``BulkEntries/positions``) and
    /// its ``LoadContext``, it returns the entry's asset or throws its failure (which fails that
    /// entry alone). Stops when the batch is cancelled.
    public func loadEach(_ load: (_ position: Int, _ context: LoadContext) throws -> any Asset) {
        // A run of another plugin's entries is loaded only by `loadEach(reading:)`.
        guard plugin === expansion.expander else { return }
        each(load)
    }

    /// Loads each entry of the run not loaded yet, in order, through the plugin that loads it
    /// (``loader``: an image inside a zip, by the image plugin), its bytes read by `read`: given
    /// the entry's position (``BulkEntries/positions``), the most bytes it may have, where large
    /// bytes belong, whether to stop and where the fraction read goes (what
    /// ``ContainerPlugin/readEntry(_:in:limit:memory:isCancelled:progress:)`` is given), it returns
    /// the entry's bytes or throws (which fails that entry alone, by its path). The entry's
    /// plugin reads them as its file's contents (``LoadContext/readContents(reportingProgress:)``,
    /// timed as reading); `read` is not called for an entry its plugin does not read. Stops when
    /// the batch is cancelled.
    public func loadEach(
        reading read: (_ position: Int, _ limit: Int, _ memory: AssetMemory, _ isCancelled: () -> Bool, _ progress: (Double) -> Void) throws
            -> AssetBytes
    ) {
        let loader = plugin.loader, environment = loading.environment
        each { position, context in
            try withoutActuallyEscaping(read) { read in
                // Held by the context only while its plugin loads it (so `read` does not escape).
                context.supply(
                    LoadContext.SuppliedEntry { progress in
                        try read(position, environment.maxFileBytes, environment.memory, { environment.isCancelled }, progress)
                    })
                defer { context.supply(nil) }
                return try loader.load(context)
            }
        }
    }

    /// Loads each entry not loaded yet by `load`, each timed and recorded as an item loaded
    /// alone; stops when the batch is cancelled.
    private func each(_ load: (_ position: Int, _ context: LoadContext) throws -> any Asset) {
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
    var rest: (items: Slice<LoadItems>, from: ContinuousClock.Instant) { (items[next..<range.upperBound], started) }
}
