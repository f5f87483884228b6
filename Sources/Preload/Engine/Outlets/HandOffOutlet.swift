/// The hand-off outlet: queues a batch's loaded assets on its ``AssetHandOff`` for the engine's
/// thread, in the batch's event order, and keeps the count of what is still waiting there (its
/// memory-budget bytes, the hand-off's share of progress, a completion waiting for the last
/// hand-over). Its counts (``HandOffTally``) live in the ``BatchState``, under the recorder's lock.
struct HandOffOutlet: Sendable {
    /// The queue assets go to; `nil` when the batch hands nothing over.
    let handOff: AssetHandOff?
    /// Whether the batch completes only once its assets are handed over
    /// (``PreloadOptions/completesAfterHandOff``).
    let completesAfterHandOff: Bool
    /// Whether assets are queued in an order other than completion order: a loaded asset may
    /// then wait for earlier ones before it is queued.
    let waitsItsTurn: Bool

    init(options: PreloadOptions) {
        handOff = options.handOff
        completesAfterHandOff = options.completesAfterHandOff
        waitsItsTurn = options.assetEventOrder != .completion
    }

    var isActive: Bool { handOff != nil }
    /// Whether the batch's progress counts what is handed over (see ``ProgressOutlet/handOff``).
    var countsInProgress: Bool { handOff != nil && completesAfterHandOff }

    /// Whether a finished asset will be queued for the engine: it loaded, and it is the caller's
    /// (or the hand-off takes dependencies too).
    private func willHandOver(_ finished: FinishedAsset, callers: Int) -> Bool {
        guard let handOff, finished.outcome.asset != nil else { return false }
        return finished.asset < callers || handOff.includesDependencies
    }

    /// Accounts for a finished load's assets: an asset that will be handed over keeps its budget
    /// bytes until then; the others' bytes are returned (summed). Caller's assets that will not
    /// be handed over count as done for the hand-off's progress.
    ///
    /// In an order other than completion order, an asset may wait for earlier ones before it is
    /// queued: its bytes are marked as waiting their turn until it is (``MemoryBudget`` lets a
    /// load through when such bytes are all it holds, so they cannot keep out the load they wait for).
    func settle(_ finished: [FinishedAsset], callers: Int, in state: inout BatchState) -> Int {
        var released = 0
        for asset in finished {
            if willHandOver(asset, callers: callers) {
                guard asset.decodedBytes > 0 else { continue }
                state.handOff.held[asset.asset, default: 0] += asset.decodedBytes
                if waitsItsTurn { startWaiting(asset.asset, in: &state) }
            } else {
                released += asset.decodedBytes
                if asset.asset < callers { state.progress.handOff?.done += state.assets[asset.asset].weight }
            }
        }
        return released
    }

    /// Queues `result` if it is one to hand over and its asset (`receipt`'s) is not queued yet.
    /// The item carries `receipt` back when it is handed over.
    func queue(_ result: AssetResult, receipt: @autoclosure () -> HandOverReceipt, in state: inout BatchState) {
        guard let handOff, let asset = result.outcome.asset, !result.isDependency || handOff.includesDependencies else { return }
        let receipt = receipt()
        guard state.handOff.queued.insert(receipt.asset).inserted else { return }
        state.handOff.pending += 1
        leaveWaiting(receipt.asset, in: &state)
        handOff.enqueue(
            AssetHandOff.Item(
                name: result.request.name, path: result.request.path, asset: asset, isDependency: result.isDependency, receipt: receipt))
    }

    /// The result of the asset numbered `index` waits for planning to end (``HeldForDependents``):
    /// no load waits for that, so its bytes do not count as waiting their turn (which lets loads
    /// go over the budget); they hold the budget as any other asset's do.
    func waitsForPlanning(_ index: Int, in state: inout BatchState) {
        leaveWaiting(index, in: &state)
    }

    /// The caller's asset numbered `index` is folded into an asset that depends on it (a walked
    /// atlas page): handed over with it, never on its own, unless dependencies are handed over
    /// too (then once, as one). Its budget bytes go back (in ``HandOffTally/released``) and its
    /// share of the hand-off's progress is done.
    func fold(_ index: Int, callers: Int, in state: inout BatchState) {
        guard let handOff, !handOff.includesDependencies, state.handOff.queued.insert(index).inserted else { return }
        leaveWaiting(index, in: &state)
        state.handOff.released += state.handOff.held.removeValue(forKey: index) ?? 0
        if index < callers { state.progress.handOff?.done += state.assets[index].weight }
    }

    /// The asset numbered `index` waits its turn: its bytes count as such.
    private func startWaiting(_ index: Int, in state: inout BatchState) {
        guard let bytes = state.handOff.held[index], state.handOff.waiting.insert(index).inserted else { return }
        state.handOff.waitingTurnChange += bytes
    }

    /// The asset numbered `index` no longer waits its turn.
    private func leaveWaiting(_ index: Int, in state: inout BatchState) {
        guard state.handOff.waiting.remove(index) != nil, let bytes = state.handOff.held[index] else { return }
        state.handOff.waitingTurnChange -= bytes
    }

    /// The asset numbered `index` was handed over (or withdrawn): returns the budget bytes it
    /// held, and whether that was the last one a deferred completion waited for.
    func recordHandedOver(_ index: Int, callers: Int, in state: inout BatchState) -> (bytes: Int, completes: Bool) {
        let bytes = state.handOff.held.removeValue(forKey: index) ?? 0
        state.handOff.pending -= 1
        if index < callers, index < state.assets.count { state.progress.handOff?.done += state.assets[index].weight }
        return (bytes, state.handOff.completionDeferred && state.handOff.pending == 0)
    }

    /// Takes the items `batch` still has waiting out of the queue (it was cancelled).
    func withdraw(itemsOf batch: ObjectIdentifier) -> [AssetHandOff.Item] {
        handOff?.remove(itemsOf: batch) ?? []
    }

    /// Whether completion waits for the hand-off: the batch asked for it and assets are still
    /// queued (marks the completion as deferred).
    func defersCompletion(_ state: inout BatchState) -> Bool {
        guard completesAfterHandOff, state.handOff.pending > 0 else { return false }
        state.handOff.completionDeferred = true
        return true
    }
}

/// A batch's assets on their way to the engine, behind the batch's lock.
struct HandOffTally {
    /// Assets queued and not handed over yet.
    var pending = 0
    /// Assets queued so far (an asset several requests merged into is queued once).
    var queued: Set<Int> = []
    /// Memory-budget bytes each queued asset holds until it is handed over.
    var held: [Int: Int] = [:]
    /// How the bytes of assets waiting their turn changed under the batch's lock (loaded and
    /// waiting: more; queued at last: fewer): given to the budget once the lock is released.
    var waitingTurnChange = 0
    /// The completion operation has run and the batch waits for the last hand-over to complete.
    var completionDeferred = false
    /// Assets loaded and waiting their turn (in an order other than completion order), whose
    /// bytes count as such.
    var waiting: Set<Int> = []
    /// Budget bytes that folded assets gave back under the batch's lock: returned to the budget
    /// once the lock is released.
    var released = 0

    /// The budget's bytes given back and the change of those waiting their turn since last
    /// asked (both then reset), for the budget once the batch's lock is released.
    mutating func takeSettlement() -> BudgetSettlement {
        defer { (released, waitingTurnChange) = (0, 0) }
        return BudgetSettlement(released: released, waitingTurnChange: waitingTurnChange)
    }
}
