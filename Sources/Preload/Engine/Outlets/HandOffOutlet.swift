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
                if waitsItsTurn { state.handOff.waitingTurnChange += asset.decodedBytes }
            } else {
                released += asset.decodedBytes
                if asset.asset < callers { state.progress.handOff?.done += state.assets[asset.asset].weight }
            }
        }
        return released
    }

    /// Queues `result` (of the asset numbered `index`) if it is one to hand over and its asset is
    /// not queued yet. The item reports its hand-over to `recorder`.
    func queue(_ result: AssetResult, asset index: Int, in state: inout BatchState, recorder: BatchRecorder) {
        guard let handOff, let asset = result.outcome.asset, !result.isDependency || handOff.includesDependencies else { return }
        guard state.handOff.queued.insert(index).inserted else { return }
        state.handOff.pending += 1
        if waitsItsTurn, let bytes = state.handOff.held[index] { state.handOff.waitingTurnChange -= bytes }
        handOff.enqueue(
            AssetHandOff.Item(
                name: result.request.name, path: result.request.path, asset: asset, isDependency: result.isDependency,
                recorder: recorder, assetIndex: index))
    }

    /// The asset numbered `index` was handed over (or withdrawn): returns the budget bytes it
    /// held, and whether that was the last one a deferred completion waited for.
    func recordHandedOver(_ index: Int, callers: Int, in state: inout BatchState) -> (bytes: Int, completes: Bool) {
        let bytes = state.handOff.held.removeValue(forKey: index) ?? 0
        state.handOff.pending -= 1
        if index < callers, index < state.assets.count { state.progress.handOff?.done += state.assets[index].weight }
        return (bytes, state.handOff.completionDeferred && state.handOff.pending == 0)
    }

    /// Takes the items `recorder`'s batch still has waiting out of the queue (it was cancelled).
    func withdraw(itemsOf recorder: BatchRecorder) -> [AssetHandOff.Item] {
        handOff?.remove(itemsOf: recorder) ?? []
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
}
