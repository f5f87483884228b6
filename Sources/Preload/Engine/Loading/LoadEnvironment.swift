import PreloadConcurrency

/// What every load of one batch receives: values, a cancellation flag to read, the memory
/// budget's admission, and a send-only ``LoadSink`` for what happened. Made once per batch and
/// shared by its ``LoadOperation``s and their ``LoadContext``s; none of it reaches the batch's
/// state or another load, and the recorder only through the sink's one call.
final class LoadEnvironment: Sendable {
    /// Where large pixels and data go: the coordinator's pool.
    let memory: AssetMemory
    /// Files larger than this are refused before they are read.
    let maxFileBytes: Int
    /// Whether a warning fails its asset (``PreloadOptions/isStrict``).
    let isStrict: Bool
    /// Raised when the batch is cancelled.
    let cancellation: CancellationFlag
    /// The memory budget's admission (``PreloadOptions/memoryBudget``); `nil` without one.
    let admission: MemoryBudget?
    /// Where loads send what happened.
    let sink: LoadSink
    /// The asset types that read baked entries, by kind name (the registry's).
    let bakedKinds: BakedKinds
    /// What planning plugins' plans handed their assets' loads.
    let notes = PlanningNotes()
    /// The files bulk plugins expanded (``BulkExpandingPlugin``), set by planning before it
    /// queues a load.
    private let bulk = PreloadMutex(BulkExpansions())

    init(
        memory: AssetMemory, maxFileBytes: Int, isStrict: Bool, cancellation: CancellationFlag, admission: MemoryBudget?,
        sink: LoadSink, bakedKinds: BakedKinds = BakedKinds()
    ) {
        self.bakedKinds = bakedKinds
        self.memory = memory
        self.maxFileBytes = maxFileBytes
        self.isStrict = isStrict
        self.cancellation = cancellation
        self.admission = admission
        self.sink = sink
    }

    /// The files bulk plugins expanded: read once per load (most batches: none).
    var expansions: BulkExpansions {
        get { bulk.withLock { $0 } }
        set { bulk.withLock { $0 = newValue } }
    }

    /// Adds the entries a ``BulkDependingPlugin`` listed, numbered after every expansion so
    /// far, before a load of them is queued.
    func add(_ expansion: BulkExpansion) {
        bulk.withLock { $0.all.append(expansion) }
    }

    /// Whether the batch is being cancelled.
    var isCancelled: Bool { cancellation.isRaised }
}
