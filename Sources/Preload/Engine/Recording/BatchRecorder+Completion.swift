import Dispatch

/// The recorder's cancellation, hand-overs and completion.
///
/// What completes the batch (the report's assembly, the outlets' `completed`, the final progress
/// and the completion hook's queueing) never runs on the thread of a hand-over or of a
/// cancellation: those come from the engine's thread (``AssetHandOff/drain(budget:maxItems:_:)``,
/// once per frame) or the caller's, which must not pay for the report of 20,000 files. It
/// runs on the completion operation's thread, or on a global queue's when a hand-over or a
/// cancellation is what lets the batch end.
extension BatchRecorder {
    // MARK: Cancellation

    /// Cancels every load that has not finished (each reads the raised flag between files), and
    /// the planning still to come.
    func cancel() {
        let cancels = state.withLock { state -> Bool in
            guard state.phase != .finished, !state.cancelRequested else { return false }
            state.cancelRequested = true
            return true
        }
        guard cancels else { return }
        cancellation.raise()
        withdrawFromHandOff()
    }

    /// The batch was cancelled: its assets still waiting on the hand-off stay in the store but
    /// are not handed over, and loads waiting for the budget go on to report themselves cancelled.
    private func withdrawFromHandOff() {
        budget?.releaseWaiters()
        guard let removed = handOffQueue?.remove(itemsOf: ObjectIdentifier(self)), !removed.isEmpty else { return }
        let (settled, finish) = state.withLock { state -> (BudgetSettlement, Bool) in
            for item in removed {
                state.tellOutlets("handedOver") { try $0.handedOver(asset: item.receipt.asset, ledger: $1) }
            }
            return (settlement(of: state), state.outlets.handOff?.takeCompletionDue() ?? false)
        }
        budget?.settle(settled)
        if finish { finishCompletionElsewhere() }
    }

    /// What the memory budget is owed since last asked: the ``HandOffOutlet``'s accounts (a
    /// batch with a budget or a hand-off has one; nothing is owed without either).
    func settlement(of state: borrowing BatchState) -> BudgetSettlement {
        state.outlets.handOff?.takeSettlement() ?? BudgetSettlement()
    }

    // MARK: Hand-off

    /// The acknowledgement a hand-off item carries back (``HandOverReceipt``): it leads to
    /// ``handedOver(_:handle:releasing:)``, and is all of the batch an item holds.
    func receipt(for asset: Int) -> HandOverReceipt {
        HandOverReceipt(batch: ObjectIdentifier(self), asset: asset) { [self] in handedOver($0, handle: $1, releasing: $2) }
    }

    /// The engine took `item` over, returning `handle`; with `releasing`, the asset leaves memory
    /// (the store and the batch keep a ``HandedOverAsset``). Runs on the engine's thread: if this
    /// was the last hand-over a deferred completion waited for, the batch completes elsewhere.
    func handedOver(_ item: AssetHandOff.Item, handle: (any Sendable)?, releasing: Bool) {
        // One stand-in for the store and the report alike.
        let replacement = releasing ? handle.map { HandedOverAsset(releasing: item.asset, handle: $0) } : nil
        store.handedOver(item, handle: handle, replacement: replacement)
        let asset = item.receipt.asset
        let (settled, completes, delay) = state.withLock { state -> (BudgetSettlement, Bool, Duration?) in
            // Where the batch's dependents read it, only once none is still to.
            if let replacement, asset < state.records.count, state.held.replaces(asset, with: replacement, planning: state.phase == .planning) {
                state.replace(asset, with: replacement)
            }
            state.tellOutlets("handedOver") { try $0.handedOver(asset: asset, ledger: $1) }
            let completes = state.outlets.handOff?.takeCompletionDue() ?? false
            return (settlement(of: state), completes, state.phase == .finished ? nil : deliverProgress(&state))
        }
        budget?.settle(settled)
        if let delay { scheduleTrailingProgress(after: delay) }
        if completes { finishCompletionElsewhere() }
    }

    // MARK: Completion

    /// Called once by the completion operation, after every load has finished. Completes the
    /// batch, unless it waits for its assets to be handed over (then the last hand-over does).
    func complete() {
        let (deferred, settled) = state.withLock { state -> (Bool, BudgetSettlement) in
            guard state.phase == .running else { return (false, BudgetSettlement()) }
            if deliversResults {
                for held in state.ordering.flush() { deliver(held, in: &state) }
            }
            for (asset, standIn) in state.held.flush() { state.replace(asset, with: standIn) }
            var deferred = false
            var failures: [OutletFailure] = []
            for outlet in state.outlets.list {
                do {
                    if try outlet.completing(ledger: state) { deferred = true }
                } catch {
                    failures.append(OutletFailure(outlet: "\(type(of: outlet))", event: "completing", cause: error))
                }
            }
            state.outletFailures += failures
            return (deferred, settlement(of: state))
        }
        budget?.settle(settled)
        if !deferred { finishCompletion() }
    }

    /// Completes the batch on a global queue's thread, not the caller's (the engine's thread
    /// handing an asset over, or a caller cancelling).
    private func finishCompletionElsewhere() {
        DispatchQueue.global().async { [self] in finishCompletion() }
    }

    /// Completes the batch: the report, the final progress, the completion hook.
    private func finishCompletion() {
        let elapsed = ContinuousClock.now - startedAt
        completionCallback.withLock { callback in
            callback?()
            callback = nil
        }
        let report = state.withLock { state -> PreloadReport? in
            guard state.phase == .running else { return nil }
            state.diagnostics.memoryLockHeld = memory.lockHeld - memoryLockHeldBefore
            var report = ReportAssembly.finish(&state, elapsed: elapsed, peakHeldBytes: budget?.peak ?? 0)
            var failures: [OutletFailure] = []
            for outlet in state.outlets.list {
                do {
                    try outlet.completed(&report, ledger: state)
                } catch {
                    failures.append(OutletFailure(outlet: "\(type(of: outlet))", event: "completed", cause: error))
                }
            }
            state.outletFailures += failures
            if state.outlets.takesSnapshots {
                let last = state.outlets.progress.finalSnapshot()
                state.tellOutlets("progressDue") { try $0.progressDue(last, ledger: $1) }
            }
            report.outletFailures = state.outletFailures
            state.report = report
            events.completion(report) { [self] in
                hooksFinished.store(true, ordering: .releasing)
                done.leave()
            }
            return report
        }
        guard let report else { return }
        logger.debug(
            "preload batch finished",
            metadata: [
                "loaded": "\(report.loaded.count)", "failed": "\(report.failed.count)",
                "cancelled": "\(report.cancelled.count)", "seconds": "\(report.elapsed.inSeconds)",
            ])
    }
}
