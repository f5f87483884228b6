import PreloadConcurrency
import Dispatch
import Foundation
import Logging
import Synchronization

/// The record stage of a batch: the only writer of its ledger (``BatchState``, behind one lock),
/// and what hands each event to its outlets (``BatchOutlets``), always in the same order.
///
/// Planning records what it decided (entries, assets, failures); loads send what happened
/// (``LoadEvent``, through their ``LoadSink``: ``receive(_:)``); the completion operation, the
/// hand-off's receipts and cancellation report to it too. For a finished load the recorder, in
/// this order:
///
/// 1. stores the loaded assets (``StoreOutlet``, outside the batch's lock: each store shard's
///    lock once per load);
/// 2. under the batch's lock, once per load: records each asset's outcome in the ledger and
///    hands the load to every outlet (``BatchOutlet/loaded(_:ledger:)``); then delivers the
///    entries it made ready, in the batch's event order (``AssetEventOrdering``), to the outlets
///    (``BatchOutlet/delivered(_:receipt:ledger:)``: the hooks, the hand-off), and hands the
///    progress hook a snapshot if one is due (``ProgressOutlet``);
/// 3. settles with the memory budget (``MemoryBudget``) what the hand-off says is owed.
///
/// At completion it flushes held events, lets the outlets defer the end (the hand-off), and
/// makes the report (``ReportOutlet``, then ``BatchOutlet/completed(_:ledger:)``) before the
/// final progress and the completion hook. Nothing here runs plugin code, and no hook runs
/// under the lock: events are queued in order and run later.
final class BatchRecorder: Sendable {
    let state: BatchLock
    /// Where loaded assets go (``PreloadOptions/storesAssets``).
    let store: StoreOutlet
    /// The hooks (also in the outlets' list, for delivered results).
    let events: EventOutlet
    /// The engine's hand-off queue (``PreloadOptions/handOff``), to withdraw a cancelled batch's items.
    private let handOffQueue: AssetHandOff?
    /// Whether each entry's result is delivered to the outlets (``BatchOutlets/deliversResults``).
    private let deliversResults: Bool
    /// The memory budget (``PreloadOptions/memoryBudget``); `nil` without one.
    let budget: MemoryBudget?
    let failsFast: Bool
    let logger: Logger
    let startedAt: ContinuousClock.Instant
    /// Raised by ``cancel()`` before anything else happens: read by loads without the batch's lock.
    let cancellation = CancellationFlag()
    /// Released once the batch has completed and its completion hook has run.
    let done = DispatchGroup()
    /// Set once the batch has completed and its completion hook has returned (before ``done``
    /// is released): what ``PreloadBatch/isFinished`` reads.
    let hooksFinished = Atomic(false)
    private let callers: Atomic<Int>
    private let memory: AssetMemory
    /// The memory pool's lock time when the batch started (see ``BatchDiagnostics/memoryLockHeld``).
    private let memoryLockHeldBefore: Duration
    private let completionCallback = PreloadMutex<(@Sendable () -> Void)?>(nil)

    init(
        callers requests: [AssetRequest], options: PreloadOptions, store: StoreOutlet, events: EventOutlet, logger: Logger,
        memory: AssetMemory
    ) {
        callers = Atomic(requests.count)
        self.store = store
        self.events = events
        handOffQueue = options.handOff
        budget = options.memoryBudget.map { MemoryBudget(limit: $0) }
        failsFast = options.failurePolicy == .failFast
        self.logger = logger
        self.memory = memory
        memoryLockHeldBefore = memory.lockHeld
        startedAt = .now
        let outlets = BatchOutlets(options: options, events: events)
        deliversResults = outlets.deliversResults
        state = BatchLock(BatchState(callers: requests, outlets: outlets, eventOrder: options.assetEventOrder))
        done.enter()
    }

    /// The caller's requests: as given, then (once planning has walked them) with each folder
    /// replaced by the files found in it.
    var requests: [AssetRequest] { state.withLock { $0.callers } }
    /// How many of the batch's entries are the caller's (see ``requests``).
    var callerCount: Int { callers.load(ordering: .acquiring) }
    var isCancelled: Bool { state.withLock { $0.cancelRequested } }

    /// Called once when the batch completes, before any waiter is released.
    var onComplete: (@Sendable () -> Void)? {
        get { completionCallback.withLock { $0 } }
        set { completionCallback.withLock { $0 = newValue } }
    }

    // MARK: Planning records

    /// The caller's folders were walked: `expanded` are the caller's requests now (at the
    /// positions `named`, those the caller named); the last `unloadable.count` of them failed
    /// where they were found.
    func recordCallers(
        _ expanded: [AssetRequest], skipped: [String], skipReasons: [String: String], named: [Int], unloadable: [AssetError]
    ) {
        state.withLock { state in
            state.replaceCallers(expanded, skipped: skipped, skipReasons: skipReasons, named: named)
            for (offset, error) in unloadable.enumerated() {
                announce(state.fail(expanded.count - unloadable.count + offset, error), in: &state)
            }
        }
        callers.store(expanded.count, ordering: .releasing)
        if !unloadable.isEmpty { assetFailed() }
    }

    /// How planning placed one request that depends on nothing: on an asset (its own new one
    /// when `asset == entry`), or failed.
    enum Placement {
        case placed(entry: Int, asset: Int, plugin: String, weight: Int64)
        case failed(entry: Int, AssetError)
    }

    /// Records a chunk of planned requests (one lock of the batch).
    func record(_ placements: [Placement]) {
        let failed = state.withLock { state -> Bool in
            var failed = false
            for placement in placements {
                switch placement {
                case .failed(let entry, let error):
                    announce(state.fail(entry, error), in: &state)
                    failed = true
                case .placed(let entry, let asset, let plugin, let weight):
                    if state.place(entry, on: asset, plugin: plugin) {
                        announce(entry, in: &state)
                    } else if asset == entry {
                        plan(asset, weight: weight, in: &state)
                    }
                }
            }
            return failed
        }
        if failed { assetFailed() }
    }

    /// A new entry for the dependency `request`, brought by the caller's request `origin`.
    func addDependencyEntry(_ request: AssetRequest, origin: Int) -> Int {
        state.withLock { $0.addDependencyEntry(request, origin: origin) }
    }

    /// `entry` could not be planned.
    func recordFailure(of entry: Int, _ error: AssetError) {
        state.withLock { announce($0.fail(entry, error), in: &$0) }
    }

    /// `entry` waits for `asset` (its own new one when `asset == entry`).
    func recordPlacement(of entry: Int, on asset: Int, plugin: String) {
        state.withLock { state in
            if state.place(entry, on: asset, plugin: plugin) { announce(entry, in: &state) }
        }
    }

    /// The asset with dependencies `dependencies` is planned, weighing `weight`.
    func recordPlan(of asset: Int, weight: Int64, dependencies: [Int]) {
        state.withLock { plan(asset, weight: weight, dependencies: dependencies, in: &$0) }
    }

    /// Records the asset's plan in the ledger and tells the outlets.
    private func plan(_ asset: Int, weight: Int64, dependencies: [Int] = [], in state: inout BatchState) {
        state.plan(asset, weight: weight, dependencies: dependencies)
        for outlet in state.outlets.list { outlet.planned(asset: asset, weight: weight, ledger: state) }
    }

    /// The asset failed while planning and will not load.
    func recordPlanningFailure(of asset: Int, _ error: AssetError) {
        state.withLock { state in
            for entry in state.failPlanning(asset, error) { announce(entry, in: &state) }
        }
    }

    /// A load with `dependencies` is about to be queued: their outcomes go into `outcomes` as
    /// they finish (those already finished at once), so that the load receives them as values.
    func awaitOutcomes(of dependencies: [(request: AssetRequest, asset: Int)], into outcomes: DependencyOutcomes) {
        state.withLock { $0.awaitOutcomes(of: dependencies, into: outcomes) }
    }

    /// Planning is over: the progress total is known.
    func recordPlanningFinished() {
        let (delay, settled) = state.withLock { state -> (Duration?, BudgetSettlement) in
            state.planning = ContinuousClock.now - startedAt
            state.phase = .running
            for outlet in state.outlets.list { outlet.planningEnded(ledger: state) }
            let (held, standIns) = state.held.planningEnded()
            for (asset, standIn) in standIns { state.replace(asset, with: standIn) }
            for entry in held { deliver(entry, in: &state) }
            return (deliverProgress(&state), settlement(of: state))
        }
        budget?.settle(settled)
        if let delay { scheduleTrailingProgress(after: delay) }
    }

    /// What the planning thread did alone, and how many operations were queued.
    func recordPlanningWork(thread: Duration, queuedOperations: Int, loads: Int) {
        state.withLock { state in
            state.diagnostics.planningThread = thread
            state.diagnostics.queuedOperations = queuedOperations
            state.diagnostics.loads = loads
        }
    }

    // MARK: Loads

    /// Applies what a load sent (its ``LoadSink`` leads here).
    func receive(_ event: LoadEvent) {
        switch event {
        case .progressed(let asset, let fraction): progressed(asset, fraction: fraction)
        case .failed: assetFailed()
        case .finished(let assets): record(assets)
        }
    }

    /// A load's assets are done: they go into the store (one lock of each store shard), then,
    /// under one lock of the batch, the budget's bytes are settled, the outcomes recorded, the
    /// entries ready for their events announced and progress advanced. Called before the load's
    /// `isFinished` turns true.
    func record(_ finished: [FinishedAsset]) {
        let callers = callerCount  // assets numbered below it were planned for the caller's requests
        let storing = store.store(finished, callers: callers)
        let (delay, settled) = state.withLock { state -> (Duration?, BudgetSettlement) in
            guard state.phase != .finished else { return (nil, BudgetSettlement()) }
            state.diagnostics.storeLockHeld += storing
            var ready: [BatchState.Waiters] = []
            for index in finished.indices {
                let waiters = state.record(finished[index])
                state.dependentFinished(finished[index].asset)
                if waiters.more != nil || deliversResults { ready.append(waiters) }
            }
            for outlet in state.outlets.list { outlet.loaded(finished, ledger: state) }
            for waiters in ready {
                // The first waiter made the asset: its request is the one stored above.
                for entry in waiters { announce(entry, in: &state, stored: entry == waiters.first) }
            }
            return (deliverProgress(&state), settlement(of: state))
        }
        budget?.settle(settled)
        if let delay { scheduleTrailingProgress(after: delay) }
        if logger.logLevel <= .debug {
            for case .failed(let error) in finished.map(\.outcome) { logger.debug("asset failed", metadata: ["error": "\(error)"]) }
        }
    }

    /// An asset reports `fraction` done.
    func progressed(_ asset: Int, fraction: Double) {
        tellOutletsOfProgress { outlet, state in outlet.progressed(asset: asset, fraction: fraction, ledger: state) }
    }

    /// Remote files' bytes: `expected` more to come, `received` more arrived (the batch's
    /// ``RemoteFetchSession`` leads here).
    func transferred(expected: Int64, received: Int64) {
        tellOutletsOfProgress { outlet, state in outlet.transferred(expected: expected, received: received, ledger: state) }
    }

    /// Hands a progress event to every outlet (`event`, under the batch's lock, unless the batch
    /// is over), then the progress hook a snapshot if one is due.
    private func tellOutletsOfProgress(_ event: (any BatchOutlet, borrowing BatchState) -> Void) {
        guard
            let delay = state.withLock({ state -> Duration? in
                guard state.phase != .finished else { return nil }
                for outlet in state.outlets.list { event(outlet, state) }
                return deliverProgress(&state)
            })
        else { return }
        scheduleTrailingProgress(after: delay)
    }

    /// A remote file reached the disk (or failed), as `transfer` tells.
    func fetched(_ transfer: AssetTransfer) {
        state.withLock { state in
            for outlet in state.outlets.list { outlet.fetched(transfer, ledger: state) }
        }
    }

    /// An asset failed: under fail-fast, the batch is cancelled now.
    func assetFailed() {
        guard failsFast else { return }
        cancel()
    }

    /// Stores the asset of `entry` (if it loaded and is not `stored` yet) and hands its result
    /// to the hooks and the hand-off, once the batch's ``AssetEventOrder`` lets it (with any
    /// results it was holding back).
    private func announce(_ entry: Int, in state: inout BatchState, stored: Bool = false) {
        if !stored { store.store(entry: entry, of: state) }
        guard deliversResults else { return }
        for ready in state.ordering.finished(entry) { deliver(ready, in: &state) }
    }

    /// Hands the result of `entry` to the hooks and, if it is to be, to the engine's hand-off,
    /// unless it waits for planning to end or is folded into what depends on it
    /// (``HeldForDependents``).
    private func deliver(_ entry: Int, in state: inout BatchState) {
        let asset = state.assetOfEntry[entry]
        if state.held.holds(entry, planning: state.phase == .planning) {
            if asset >= 0 { for outlet in state.outlets.list { outlet.heldForPlanning(asset: asset, ledger: state) } }
            return
        }
        if state.held.walked, state.isFolded(entry) {
            // Part of the asset that depends on it: its dependency entry is delivered instead.
            for outlet in state.outlets.list { outlet.folded(asset: asset, ledger: state) }
            return
        }
        let result = state.result(ofEntry: entry)
        for outlet in state.outlets.list { outlet.delivered(result, receipt: receipt(for: asset), ledger: state) }
    }

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
                for outlet in state.outlets.list { outlet.handedOver(asset: item.receipt.asset, ledger: state) }
            }
            return (settlement(of: state), state.outlets.handOff?.takeCompletionDue() ?? false)
        }
        budget?.settle(settled)
        if finish { finishCompletion() }
    }

    /// What the memory budget is owed since last asked: the ``HandOffOutlet``'s accounts (a
    /// batch with a budget or a hand-off has one; nothing is owed without either).
    private func settlement(of state: borrowing BatchState) -> BudgetSettlement {
        state.outlets.handOff?.takeSettlement() ?? BudgetSettlement()
    }

    // MARK: Hand-off

    /// The acknowledgement a hand-off item carries back (``HandOverReceipt``): it leads to
    /// ``handedOver(_:handle:releasing:)``, and is all of the batch an item holds.
    func receipt(for asset: Int) -> HandOverReceipt {
        HandOverReceipt(batch: ObjectIdentifier(self), asset: asset) { [self] in handedOver($0, handle: $1, releasing: $2) }
    }

    /// The engine took `item` over, returning `handle`; with `releasing`, the asset leaves memory
    /// (the store and the batch keep a ``HandedOverAsset``).
    func handedOver(_ item: AssetHandOff.Item, handle: (any Sendable)?, releasing: Bool) {
        // One stand-in for the store and the report alike.
        let replacement = releasing ? handle.map { HandedOverAsset(releasing: item.asset, handle: $0) } : nil
        store.handedOver(item, handle: handle, replacement: replacement)
        let asset = item.receipt.asset
        let (settled, completes, delay) = state.withLock { state -> (BudgetSettlement, Bool, Duration?) in
            // Where the batch's dependents read it, only once none is still to.
            if let replacement, asset < state.assets.count, state.held.replaces(asset, with: replacement, planning: state.phase == .planning) {
                state.replace(asset, with: replacement)
            }
            for outlet in state.outlets.list { outlet.handedOver(asset: asset, ledger: state) }
            let completes = state.outlets.handOff?.takeCompletionDue() ?? false
            return (settlement(of: state), completes, state.phase == .finished ? nil : deliverProgress(&state))
        }
        budget?.settle(settled)
        if let delay { scheduleTrailingProgress(after: delay) }
        if completes { finishCompletion() }
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
            for outlet in state.outlets.list where outlet.completing(ledger: state) { deferred = true }
            return (deferred, settlement(of: state))
        }
        budget?.settle(settled)
        if !deferred { finishCompletion() }
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
            var report = ReportOutlet.finish(&state, elapsed: elapsed, peakHeldBytes: budget?.peak ?? 0)
            for outlet in state.outlets.list { outlet.completed(&report, ledger: state) }
            state.report = report
            events.progress(state.outlets.progress.finalSnapshot())
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
