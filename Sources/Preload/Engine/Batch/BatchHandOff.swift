import PreloadConcurrency

/// A batch's side of the ``AssetHandOff`` and the memory budget: which assets are queued for the
/// engine, what each holds against the budget until it is handed over, and the completion that
/// waits for the last hand-over when the batch asked for that.
extension BatchRun {
    /// Whether a finished asset will be queued for the engine: it loaded, and it is the caller's
    /// (or the hand-off takes dependencies too).
    func willHandOver(_ finished: FinishedAsset, callers: Int) -> Bool {
        guard let handOff, finished.outcome.asset != nil else { return false }
        return finished.asset < callers || handOff.includesDependencies
    }

    /// Accounts for a finished load's assets (under the batch's lock): an asset that will be
    /// handed over keeps its budget bytes until then; the others' bytes are returned (summed).
    /// Caller's assets that will not be handed over count as done for the hand-off's progress.
    ///
    /// In an order other than completion order, an asset may wait for earlier ones before it is
    /// queued: its bytes are marked as waiting their turn until it is (`DecodeBudget` lets a load
    /// through when such bytes are all it holds, so they cannot keep out the load they wait for).
    func settle(_ finished: [FinishedAsset], callers: Int, in state: inout BatchState) -> Int {
        var released = 0
        let waitsItsTurn = options.assetEventOrder != .completion
        for asset in finished {
            if willHandOver(asset, callers: callers) {
                guard asset.decodedBytes > 0 else { continue }
                state.handOff.held[asset.asset, default: 0] += asset.decodedBytes
                if waitsItsTurn { state.handOff.waitingTurnChange += asset.decodedBytes }
            } else {
                released += asset.decodedBytes
                if asset.asset < callers { state.progress.handOff?.done += 1 }
            }
        }
        return released
    }

    /// Queues the result of `entry` on the hand-off if it is one to hand over and its asset is
    /// not queued yet (under the batch's lock, in the batch's event order).
    func queueForHandOff(_ result: AssetResult, entry: Int, in state: inout BatchState) {
        guard let handOff, let asset = result.outcome.asset, !result.isDependency || handOff.includesDependencies else { return }
        let index = state.assetOfEntry[entry]
        guard state.handOff.queued.insert(index).inserted else { return }
        state.handOff.pending += 1
        if options.assetEventOrder != .completion, let bytes = state.handOff.held[index] { state.handOff.waitingTurnChange -= bytes }
        handOff.enqueue(
            AssetHandOff.Item(
                name: result.request.name, path: result.request.path, asset: asset, isDependency: result.isDependency, run: self,
                assetIndex: index))
    }

    /// The engine took `item` over, returning `handle`; with `releasing`, the asset leaves memory
    /// (the store and the batch keep a ``HandedOverAsset``).
    func handedOver(_ item: AssetHandOff.Item, handle: (any Sendable)?, releasing: Bool) {
        // One stand-in for the store and the report alike.
        let replacement = releasing ? handle.map { HandedOverAsset(releasing: item.asset, handle: $0) } : nil
        store?.handedOver(name: item.name, asset: item.asset, handle: handle, replacement: replacement)
        let callers = callerCount
        let (bytes, finish, delay) = state.withLock { state -> (Int, Bool, Duration?) in
            if let replacement, item.assetIndex < state.assets.count, state.assets[item.assetIndex].outcome?.asset != nil {
                state.assets[item.assetIndex].outcome = .loaded(replacement)
            }
            let bytes = state.handOff.held.removeValue(forKey: item.assetIndex) ?? 0
            state.handOff.pending -= 1
            if item.assetIndex < callers { state.progress.handOff?.done += 1 }
            let finish = state.handOff.completionDeferred && state.handOff.pending == 0
            return (bytes, finish, state.phase == .finished ? nil : deliverProgress(&state))
        }
        budget?.release(bytes)
        if let delay { scheduleTrailingProgress(after: delay) }
        if finish { finishCompletion() }
    }

    /// The batch was cancelled: its assets still waiting on the hand-off stay in the store but are
    /// not handed over, and loads waiting for the budget go on to report themselves cancelled.
    func withdrawFromHandOff() {
        budget?.releaseWaiters()
        guard let handOff else { return }
        let removed = handOff.remove(itemsOf: self)
        guard !removed.isEmpty else { return }
        let callers = callerCount
        let (bytes, finish) = state.withLock { state -> (Int, Bool) in
            var bytes = 0
            for item in removed {
                bytes += state.handOff.held.removeValue(forKey: item.assetIndex) ?? 0
                state.handOff.pending -= 1
                if item.assetIndex < callers { state.progress.handOff?.done += 1 }
            }
            return (bytes, state.handOff.completionDeferred && state.handOff.pending == 0)
        }
        budget?.release(bytes)
        if finish { finishCompletion() }
    }

    /// Whether completion waits for the hand-off: the batch asked for it and assets are still
    /// queued (under the batch's lock; marks the completion as deferred).
    func defersCompletion(_ state: inout BatchState) -> Bool {
        guard options.completesAfterHandOff, state.handOff.pending > 0 else { return false }
        state.handOff.completionDeferred = true
        return true
    }
}
