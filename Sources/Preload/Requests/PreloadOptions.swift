import Dispatch

/// What happens to the rest of a batch when one asset fails.
public enum FailurePolicy: Sendable, Hashable {
    /// Every asset is attempted; failures are collected in the report (the default).
    case collectAll
    /// The first failure cancels every load that has not finished.
    case failFast
}

/// What a batch's progress counts.
public enum ProgressWeighting: Sendable, Hashable {
    /// Each asset weighs its file size, known from `stat` without reading anything (the default).
    case fileBytes
    /// Each asset weighs its decoded size where the plugin can read it from the file's header
    /// (PNG: width x height x 4), otherwise its file size. Costs one small read per file while
    /// planning, and gives a bar that moves with the actual decoding work.
    case decodedBytes
}

/// Per-batch settings.
public struct PreloadOptions: Sendable {
    /// Whether one failure cancels the rest (``FailurePolicy/failFast``) or every request is tried (the default).
    public var failurePolicy: FailurePolicy
    /// What a unit of progress stands for: file bytes (the default) or decoded bytes.
    public var progressWeighting: ProgressWeighting
    /// The shortest time between two progress hook calls (the last one always comes).
    /// The default, 1/60 s, matches a display refresh.
    public var progressInterval: Duration
    /// The queue hooks run on; `nil` uses the coordinator's ``PreloadCoordinator/Configuration/callbackQueue``.
    /// Hooks for one batch are always delivered one at a time, in order, even on a concurrent queue.
    public var callbackQueue: DispatchQueue?
    /// Whether loaded assets go into the coordinator's ``AssetStore`` (the default). Without it
    /// assets reach the caller only through hooks and the report (which still keeps each one:
    /// see ``memoryBudget``).
    public var storesAssets: Bool
    /// The order per-asset hooks (and ``PreloadEvent/assetLoaded(_:)`` events) are delivered in:
    /// as loads finish (the default), in request order, or after each asset's prerequisites.
    /// Assets are stored as soon as they load either way.
    public var assetEventOrder: AssetEventOrder
    /// How urgently this batch's loads run against other batches' waiting loads (default
    /// ``LoadPriority/normal``).
    public var priority: LoadPriority
    /// Whether an asset with a warning (``AssetWarning``: a PNG without IEND, an atlas with
    /// Windows line ends) fails instead of loading. Off by default, as games want; on for an
    /// asset pipeline's checks.
    public var isStrict: Bool
    /// Where loaded assets wait for the engine's thread (see ``AssetHandOff``); `nil` (the
    /// default): nothing is queued.
    public var handOff: AssetHandOff?
    /// Whether the batch completes only once every asset queued on ``handOff`` has been handed
    /// over (off by default). Progress then counts what is handed over, each item by its
    /// ``AssetHandOff/Item/progressWeight`` (its asset's weight and that of the dependencies it
    /// carries): it runs at most 5% ahead of that while assets load, and reaches the end with the
    /// last hand-over.
    public var completesAfterHandOff: Bool
    /// The most decoded bytes the batch holds at once, from the start of a decode until the
    /// asset is handed over on ``handOff`` (or, without one, until its load ends); `nil` (the
    /// default): no limit. Loads wait, in order, until their assets' sizes (read from file
    /// headers) fit; one asset larger than the budget loads alone. The report gives the peak
    /// (``PreloadReport/peakHeldBytes``). The bound is exact in completion order. In another
    /// ``assetEventOrder``, loads are queued in request order, and assets that loaded early
    /// count while they wait for an earlier one; when they are all that is held, the next load
    /// goes over the budget, so that the one they wait for gets a worker: the peak may exceed
    /// the budget by those loads.
    ///
    /// The budget bounds what the batch holds, not what is kept after: the report keeps every
    /// asset that loaded (and the store too, with ``storesAssets``). Only assets handed over on a
    /// ``handOff`` that ``AssetHandOff/releasesCPUCopies`` leave memory before the report goes
    /// (or, in a batch without per-asset hooks or a hand-off, every asset with
    /// ``reportKeepsAssets`` off); without either, memory grows to the whole batch's decoded
    /// size whatever the budget, `storesAssets: false` or not.
    ///
    /// A load that must wait for room logs "load waits for the memory budget" at `debug` level on
    /// the coordinator's ``PreloadCoordinator/Configuration/logger`` (with the bytes it asked for,
    /// the bytes held and the limit), and its ``AssetTimings/waitingForMemory`` says how long.
    public var memoryBudget: Int?
    /// Whether the report keeps each asset that loaded (the default): its result's
    /// ``AssetResult/outcome`` holds the asset. Off, the batch lets go of each asset as soon as
    /// it is recorded, and its result holds a ``ReleasedAsset`` (its kind and the bytes it held:
    /// counts, ``PreloadReport/decodedBytes`` and every other figure of the report read as they
    /// would): for a caller that only counts or checks what loads (the `preload` command without
    /// `--json` or `--verbose`), whose memory then stays at what loads at once rather than
    /// growing to the whole batch's decoded size. What else holds an asset keeps it: the store
    /// (``storesAssets``) keeps its own. Kept all the same: an asset that others of the batch
    /// depend on or that depends on others (an atlas and its pages, which may share textures),
    /// one that another request of the batch merged into (the same file asked for twice), a
    /// ``ContainerAsset`` (a pack: its listing is how its entries are read), a texture or data
    /// asset whose bytes are a view into a mapped file (a baked pack's entry: it frees nothing),
    /// and every asset of
    /// a batch that hands results on one by one (a per-asset hook, a ``handOff``), whose results
    /// must carry the asset they deliver. An asset that loads while planning goes on (a large
    /// folder is still being walked: a file found later may be the same file, or an atlas whose
    /// page it is) is let go once planning ends.
    public var reportKeepsAssets: Bool
    /// Whether the report keeps where each asset's load's time went (the default), for
    /// ``PreloadReport/timings(of:)``: 16 bytes an asset for the batch's whole life. Off,
    /// ``PreloadReport/timings(of:)`` is `nil` for every result: for a caller that does not
    /// read them (the `preload` command without `--json`), whose batch of a million tiny
    /// entries then holds 16 MB less.
    public var recordsTimings: Bool

    /// Options with the defaults described on each property.
    public init(
        failurePolicy: FailurePolicy = .collectAll,
        progressWeighting: ProgressWeighting = .fileBytes,
        progressInterval: Duration = .seconds(1) / 60,
        callbackQueue: DispatchQueue? = nil,
        storesAssets: Bool = true,
        assetEventOrder: AssetEventOrder = .completion,
        priority: LoadPriority = .normal,
        isStrict: Bool = false,
        handOff: AssetHandOff? = nil,
        completesAfterHandOff: Bool = false,
        memoryBudget: Int? = nil,
        reportKeepsAssets: Bool = true,
        recordsTimings: Bool = true
    ) {
        self.reportKeepsAssets = reportKeepsAssets
        self.recordsTimings = recordsTimings
        self.handOff = handOff
        self.completesAfterHandOff = completesAfterHandOff
        self.memoryBudget = memoryBudget
        self.failurePolicy = failurePolicy
        self.progressWeighting = progressWeighting
        self.progressInterval = progressInterval
        self.callbackQueue = callbackQueue
        self.storesAssets = storesAssets
        self.assetEventOrder = assetEventOrder
        self.priority = priority
        self.isStrict = isStrict
    }
}
