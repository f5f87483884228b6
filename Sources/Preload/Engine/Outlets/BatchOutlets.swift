/// A batch's outlets, assembled in one place from its options, in the one order every event
/// reaches them (see ``BatchOutlet``): progress, per-asset timings (unless
/// ``PreloadOptions/recordsTimings`` is off), remote files' transfers, the
/// hooks, the hand-off (when the batch has one, or a memory budget), then any outlet the batch
/// was started with (``PreloadCoordinator/start(_:options:hooks:outlets:)``, for tests and
/// tools).
///
/// What is not in the list, and why: the store (``StoreStage``) comes before the ledger, outside
/// the batch's lock; the report (``ReportAssembly``) is the recorder closing the ledger, which
/// outlets only read; the memory budget (``MemoryBudget``) is the loads' admission, with a lock
/// of its own that loads take, settled once the batch's lock is released; and the completion
/// hook, which ends the batch, is handed to the events outlet's queue by the recorder, last.
struct BatchOutlets {
    /// The progress tree and the progress hook's throttle.
    let progress: ProgressOutlet
    /// The engine's hand-off (``PreloadOptions/handOff``) and the memory budget's accounts
    /// (``PreloadOptions/memoryBudget``); `nil` without either.
    let handOff: HandOffOutlet?
    /// Every outlet the batch uses, in order.
    let list: [any BatchOutlet]
    /// Whether each entry's result is handed on (``BatchOutlet/delivered(_:receipt:ledger:)``):
    /// to the per-asset hooks, or the hand-off, or an outlet the batch was started with.
    let deliversResults: Bool
    /// Whether progress snapshots are taken (``BatchOutlet/progressDue(_:ledger:)``): the batch
    /// has a progress hook.
    let takesSnapshots: Bool

    init(options: PreloadOptions, events: EventOutlet, adding added: [any BatchOutlet] = []) {
        let handOff = options.handOff != nil || options.memoryBudget != nil ? HandOffOutlet(options: options) : nil
        progress = ProgressOutlet(interval: options.progressInterval, handOffShare: { handOff?.progressShare })
        self.handOff = handOff
        var list: [any BatchOutlet] = [progress]
        if options.recordsTimings { list.append(TimingsOutlet()) }
        list += [TransferOutlet(), events]
        if let handOff { list.append(handOff) }
        self.list = list + added
        deliversResults = events.wantsAssetEvents || options.handOff != nil || !added.isEmpty
        takesSnapshots = events.wantsProgress
    }
}
