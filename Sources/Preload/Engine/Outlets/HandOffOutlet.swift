/// The hand-off outlet: queues a batch's loaded assets on its ``AssetHandOff`` for the engine's
/// thread, in the batch's event order, and keeps the count of what is still waiting there (its
/// memory-budget bytes, the hand-off's share of progress, a completion waiting for the last
/// hand-over). It owns those counts (``HandOffTally``); the batch's lock is its lock (see
/// ``BatchOutlet``). A batch with a memory budget and no hand-off has it too, handing nothing
/// over: it returns each finished load's bytes to the budget.
final class HandOffOutlet: BatchOutlet {
    /// The queue assets go to; `nil` when the batch hands nothing over.
    let handOff: AssetHandOff?
    /// Whether the batch completes only once its assets are handed over
    /// (``PreloadOptions/completesAfterHandOff``).
    let completesAfterHandOff: Bool
    /// Whether assets are queued in an order other than completion order: a loaded asset may
    /// then wait for earlier ones before it is queued.
    let waitsItsTurn: Bool
    private var tally = HandOffTally()
    /// The weight each queued asset carries, and what is handed over (or will not be: failed,
    /// cancelled) against the whole batch's, known once planning ends; `nil` without a hand-off.
    private var share: HandOffProgressShare?
    /// For a batch that completes after its hand-off (``ProgressOutlet``'s input): the hand-off's
    /// share of progress (see ``HandOffProgressShare``); `nil` otherwise.
    var progressShare: (done: Int64, total: Int64)? {
        guard completesAfterHandOff, let share else { return nil }
        return (done: share.done, total: share.total)
    }

    init(options: PreloadOptions) {
        handOff = options.handOff
        completesAfterHandOff = options.completesAfterHandOff
        waitsItsTurn = options.assetEventOrder != .completion
        if let handOff { share = HandOffProgressShare(includesDependencies: handOff.includesDependencies) }
    }

    /// Whether a finished asset will be queued for the engine: it loaded, and it is the caller's
    /// (or the hand-off takes dependencies too).
    private func willHandOver(_ finished: FinishedAsset, callers: Int) -> Bool {
        guard let handOff, finished.status == .loaded else { return false }
        return finished.asset < callers || handOff.includesDependencies
    }

    // MARK: Events

    func planningEnded(ledger: borrowing BatchState) {
        share?.planningEnded(ledger: ledger)
    }

    /// Accounts for a finished load's assets: an asset that will be handed over keeps its budget
    /// bytes until then; the others' bytes are returned. Assets that will not be handed over
    /// count as done for the hand-off's progress (a dependency with the asset that carries it).
    ///
    /// In an order other than completion order, an asset may wait for earlier ones before it is
    /// queued: its bytes are marked as waiting their turn until it is (``MemoryBudget`` lets a
    /// load through when such bytes are all it holds, so they cannot keep out the load they wait for).
    func loaded(_ finished: [FinishedAsset], ledger: borrowing BatchState) {
        let callers = ledger.callers.count
        for index in finished.indices {
            let asset = finished[index].asset, bytes = finished[index].decodedBytes
            if willHandOver(finished[index], callers: callers) {
                guard bytes > 0 else { continue }
                tally.held[asset, default: 0] += bytes
                if waitsItsTurn { startWaiting(asset) }
            } else {
                tally.released += bytes
                share?.settled(asset, callers: callers, ledger: ledger)
            }
        }
    }

    /// Queues `result` if it is one to hand over and its asset (`receipt`'s) is not queued yet.
    /// The item carries `receipt` back when it is handed over.
    func delivered(_ result: AssetResult, receipt: @autoclosure () -> HandOverReceipt, ledger: borrowing BatchState) {
        guard let handOff, let asset = result.outcome.asset, !result.isDependency || handOff.includesDependencies else { return }
        let receipt = receipt()
        guard tally.queued.insert(receipt.asset).inserted else { return }
        tally.pending += 1
        leaveWaiting(receipt.asset)
        let weight = share?.queue(receipt.asset, ledger: ledger) ?? 0
        handOff.enqueue(
            AssetHandOff.Item(
                name: result.request.name, path: result.request.path, asset: asset, isDependency: result.isDependency,
                progressWeight: weight, receipt: receipt))
    }

    /// The result waits for planning to end (``HeldForDependents``): no load waits for that, so
    /// its bytes do not count as waiting their turn (which lets loads go over the budget); they
    /// hold the budget as any other asset's do.
    func heldForPlanning(asset: Int, ledger: borrowing BatchState) {
        leaveWaiting(asset)
    }

    /// Handed over with the asset it is folded into, never on its own, unless dependencies are
    /// handed over too (then once, as one). Its budget bytes go back; its share of the
    /// hand-off's progress is carried by that asset.
    func folded(asset: Int, ledger: borrowing BatchState) {
        guard let handOff, !handOff.includesDependencies, tally.queued.insert(asset).inserted else { return }
        leaveWaiting(asset)
        tally.released += tally.held.removeValue(forKey: asset) ?? 0
    }

    /// The asset was handed over (or withdrawn): the budget bytes it held go back, and the
    /// completion is due if it was the last one a deferred completion waited for.
    func handedOver(asset: Int, ledger: borrowing BatchState) {
        tally.released += tally.held.removeValue(forKey: asset) ?? 0
        tally.pending -= 1
        share?.handedOver(asset)
        if tally.completionDeferred && tally.pending == 0 { tally.completionDue = true }
    }

    /// Completion waits for the hand-off when the batch asked for it and assets are still queued.
    func completing(ledger: borrowing BatchState) -> Bool {
        guard handOff != nil, completesAfterHandOff, tally.pending > 0 else { return false }
        tally.completionDeferred = true
        return true
    }

    // MARK: For the recorder

    /// What the memory budget is owed since last asked (see ``HandOffTally/takeSettlement()``).
    func takeSettlement() -> BudgetSettlement {
        tally.takeSettlement()
    }

    /// Whether the last hand-over a deferred completion waited for has happened (asked once:
    /// then `false` again).
    func takeCompletionDue() -> Bool {
        defer { tally.completionDue = false }
        return tally.completionDue
    }

    /// The asset waits its turn: its bytes count as such.
    private func startWaiting(_ index: Int) {
        guard let bytes = tally.held[index], tally.waiting.insert(index).inserted else { return }
        tally.waitingTurnChange += bytes
    }

    /// The asset no longer waits its turn.
    private func leaveWaiting(_ index: Int) {
        guard tally.waiting.remove(index) != nil, let bytes = tally.held[index] else { return }
        tally.waitingTurnChange -= bytes
    }
}

/// A batch's assets on their way to the engine: the ``HandOffOutlet``'s counts.
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
    /// The last hand-over a deferred completion waited for has happened.
    var completionDue = false
    /// Assets loaded and waiting their turn (in an order other than completion order), whose
    /// bytes count as such.
    var waiting: Set<Int> = []
    /// Budget bytes given back under the batch's lock (assets not to be handed over, folded or
    /// handed over): returned to the budget once the lock is released.
    var released = 0

    /// The budget's bytes given back and the change of those waiting their turn since last
    /// asked (both then reset), for the budget once the batch's lock is released.
    mutating func takeSettlement() -> BudgetSettlement {
        defer { (released, waitingTurnChange) = (0, 0) }
        return BudgetSettlement(released: released, waitingTurnChange: waitingTurnChange)
    }
}
