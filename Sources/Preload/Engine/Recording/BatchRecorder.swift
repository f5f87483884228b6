import PreloadConcurrency
import Dispatch
import Foundation
import Logging
import Synchronization

/// The record stage of a batch: the only writer of its ledger (``BatchState``, behind one lock),
/// and what hands each event to its outlets (``BatchOutlets``), always in the same order.
///
/// Planning records what it decided (entries, assets, failures: ``PlanningRecords``, which
/// return nothing); loads send what happened (``LoadEvent``, through their ``LoadSink``:
/// ``receive(_:)``); the completion operation, the hand-off's receipts and cancellation report
/// to it too. It runs on the thread of whatever calls it: a load's sink is a plain call, so a
/// finished load is recorded on the load's own thread, before its `isFinished` turns true (a
/// lock taken on the load's thread rather than a serial executor: `docs/architecture.md` says
/// why). For a finished load the recorder, in this order:
///
/// 1. stores the loaded assets (``StoreStage``, outside the batch's lock: each store shard's
///    lock once per load);
/// 2. under the batch's lock, once per load: records each asset's outcome in the ledger and
///    hands the load to every outlet (``BatchOutlet/loaded(_:ledger:)``); then delivers the
///    entries it made ready, in the batch's event order (``AssetEventOrdering``), to the outlets
///    (``BatchOutlet/delivered(_:receipt:ledger:)``: the hooks, the hand-off), and hands them a
///    progress snapshot if one is due (``ProgressOutlet``);
/// 3. settles with the memory budget (``MemoryBudget``) what the hand-off says is owed, the
///    batch's lock released.
///
/// At completion it flushes held events, lets the outlets defer the end (the hand-off), and
/// assembles the report (``ReportAssembly``, then ``BatchOutlet/completed(_:ledger:)``) before
/// the final progress and the completion hook. Nothing here runs plugin code, and no hook runs
/// under the lock: events are queued in order and run later.
final class BatchRecorder: PlanningRecords {
    let state: BatchLock
    /// Where loaded assets go (``PreloadOptions/storesAssets``).
    let store: StoreStage
    /// The hooks (also in the outlets' list, for delivered results).
    let events: EventOutlet
    /// The engine's hand-off queue (``PreloadOptions/handOff``), to withdraw a cancelled batch's items.
    let handOffQueue: AssetHandOff?
    /// Whether each entry's result is delivered to the outlets (``BatchOutlets/deliversResults``).
    let deliversResults: Bool
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
    let memory: AssetMemory
    /// The memory pool's lock time when the batch started (see ``BatchDiagnostics/memoryLockHeld``).
    let memoryLockHeldBefore: Duration
    let completionCallback = PreloadMutex<(@Sendable () -> Void)?>(nil)

    /// `plugins`: the identifiers of the batch's registry's plugins, by index (placements name
    /// an asset's plugin by its index).
    init(
        callers requests: [AssetRequest], options: PreloadOptions, store: StoreStage, events: EventOutlet, logger: Logger,
        memory: AssetMemory, plugins: [String], outlets added: sending [any BatchOutlet] = []
    ) {
        callers = Atomic(requests.count)
        self.store = store
        self.events = events
        handOffQueue = options.handOff
        budget = options.memoryBudget.map { MemoryBudget(limit: $0, logger: logger) }
        failsFast = options.failurePolicy == .failFast
        self.logger = logger
        self.memory = memory
        memoryLockHeldBefore = memory.lockHeld
        startedAt = .now
        let outlets = BatchOutlets(options: options, events: events, adding: added)
        deliversResults = outlets.deliversResults
        var ledger = BatchState(callers: CallerRequests(requests), outlets: outlets, plugins: plugins, eventOrder: options.assetEventOrder)
        // A result handed on carries its asset: only a batch that hands none on lets go of them.
        ledger.release = ReportRelease(isOn: !options.reportKeepsAssets && !outlets.deliversResults)
        state = BatchLock(ledger)
        done.enter()
    }

    /// The caller's requests: as given, then (once planning has walked them) with each folder
    /// replaced by the files found in it.
    var requests: [AssetRequest] { Array(state.withLock { $0.callers }) }
    /// How many of the batch's entries are the caller's (see ``requests``).
    var callerCount: Int { callers.load(ordering: .acquiring) }
    var isCancelled: Bool { state.withLock { $0.cancelRequested } }

    /// Called once when the batch completes, before any waiter is released.
    var onComplete: (@Sendable () -> Void)? {
        get { completionCallback.withLock { $0 } }
        set { completionCallback.withLock { $0 = newValue } }
    }

    // MARK: Planning records

    func recordCallers(
        _ expanded: CallerRequests, skipped: [String], skipReasons: [String: String], named: [Int], unloadable: [AssetError]
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

    func reserveStore(adding count: Int) {
        store.reserve(adding: count)
    }

    /// How planning placed one request that depends on nothing: on an asset (its own new one
    /// when `asset == entry`), or failed.
    enum Placement {
        /// `plugin`: its index in the batch's registry (``RegisteredPlugin/index``).
        case placed(entry: Int, asset: Int, plugin: Int, weight: Int64)
        case failed(entry: Int, AssetError)
    }

    func record(_ placements: [Placement]) {
        let failed = state.withLock { state -> Bool in
            var failed = false
            // The outlets hear the chunk's new assets together, after its placements: handing
            // them the ledger once per asset copied it whole each time (880 bytes, ~110
            // instructions; callgrind, issue 50).
            var planned: [(asset: Int, weight: Int64)] = []
            planned.reserveCapacity(placements.count)
            for placement in placements {
                switch placement {
                case .failed(let entry, let error):
                    announce(state.fail(entry, error), in: &state)
                    failed = true
                case .placed(let entry, let asset, let plugin, let weight):
                    if state.place(entry, on: asset, plugin: plugin) {
                        announce(entry, in: &state)
                    } else if asset == entry {
                        state.plan(asset, weight: weight)
                        planned.append((asset, weight))
                    }
                }
            }
            state.tellOutlets(planned: planned)
            return failed
        }
        if failed { assetFailed() }
    }

    func recordDependencyEntry(_ request: AssetRequest, entry: Int, origin: Int) {
        state.withLock { $0.addDependencyEntry(request, entry: entry, origin: origin) }
    }

    func recordFailure(of entry: Int, _ error: AssetError) {
        state.withLock { announce($0.fail(entry, error), in: &$0) }
    }

    func recordPlacement(of entry: Int, on asset: Int, plugin: Int) {
        state.withLock { state in
            if state.place(entry, on: asset, plugin: plugin) { announce(entry, in: &state) }
        }
    }

    func recordPlan(of asset: Int, weight: Int64, dependencies: [Int]) {
        state.withLock { plan(asset, weight: weight, dependencies: dependencies, in: &$0) }
    }

    /// Records the asset's plan in the ledger and tells the outlets.
    private func plan(_ asset: Int, weight: Int64, dependencies: [Int] = [], in state: inout BatchState) {
        state.plan(asset, weight: weight, dependencies: dependencies)
        state.tellOutlets("planned") { try $0.planned(asset: asset, weight: weight, ledger: $1) }
    }

    func recordPlanningFailure(of asset: Int, _ error: AssetError) {
        state.withLock { state in
            for entry in state.failPlanning(asset, error) { announce(entry, in: &state) }
        }
    }

    func awaitOutcomes(of dependencies: [(request: AssetRequest, asset: Int)], into outcomes: DependencyOutcomes) {
        state.withLock { $0.awaitOutcomes(of: dependencies, into: outcomes) }
    }

    func recordPlanningFinished() {
        let (delay, settled) = state.withLock { state -> (Duration?, BudgetSettlement) in
            state.planning = ContinuousClock.now - startedAt
            state.phase = .running
            state.tellOutlets("planningEnded") { try $0.planningEnded(ledger: $1) }
            let (held, standIns) = state.held.planningEnded()
            for (asset, standIn) in standIns { state.replace(asset, with: standIn) }
            for entry in held { deliver(entry, in: &state) }
            state.releaseAfterPlanning()
            return (deliverProgress(&state), settlement(of: state))
        }
        budget?.settle(settled)
        if let delay { scheduleTrailingProgress(after: delay) }
    }

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
                let waiters = state.record(finished, at: index)
                state.dependentFinished(finished[index].asset)
                if waiters.more != nil || deliversResults { ready.append(waiters) }
            }
            state.tellOutlets("loaded") { try $0.loaded(finished, ledger: $1) }
            for waiters in ready {
                // The first waiter made the asset: its request is the one stored above; the
                // names the others give it are stored at once.
                store.store(sharers: waiters, of: state)
                for entry in waiters { announce(entry, in: &state, stored: true) }
            }
            if state.release.isOn {
                for index in finished.indices where finished[index].outcome.isLoaded { state.release(finished[index].asset) }
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
        tellOutletsOfProgress(.progressed(asset: asset, fraction: fraction))
    }

    /// Remote files' bytes: `expected` more to come, `received` more arrived (the batch's
    /// ``SourceSession`` leads here).
    func transferred(expected: Int64, received: Int64) {
        tellOutletsOfProgress(.transferred(expected: expected, received: received))
    }

    /// Hands a progress event to every outlet (`event`, under the batch's lock, unless the batch
    /// is over), then the progress hook a snapshot if one is due.
    private func tellOutletsOfProgress(_ event: ProgressEvent) {
        guard
            let delay = state.withLock({ state -> Duration? in
                guard state.phase != .finished else { return nil }
                switch event {
                case .progressed(let asset, let fraction):
                    state.tellOutlets("progressed") { try $0.progressed(asset: asset, fraction: fraction, ledger: $1) }
                case .transferred(let expected, let received):
                    state.tellOutlets("transferred") { try $0.transferred(expected: expected, received: received, ledger: $1) }
                }
                return deliverProgress(&state)
            })
        else { return }
        scheduleTrailingProgress(after: delay)
    }

    /// A progress event for the outlets.
    private enum ProgressEvent {
        case progressed(asset: Int, fraction: Double)
        case transferred(expected: Int64, received: Int64)
    }

    /// A remote file reached the disk (or failed), as `transfer` tells.
    func fetched(_ transfer: AssetTransfer) {
        state.withLock { state in
            state.tellOutlets("fetched") { try $0.fetched(transfer, ledger: $1) }
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
    func deliver(_ entry: Int, in state: inout BatchState) {
        let asset = state.asset(ofEntry: entry)
        if state.held.holds(entry, planning: state.phase == .planning) {
            if asset >= 0 { state.tellOutlets("heldForPlanning") { try $0.heldForPlanning(asset: asset, ledger: $1) } }
            return
        }
        if state.held.walked, state.isFolded(entry) {
            // Part of the asset that depends on it: its dependency entry is delivered instead.
            state.tellOutlets("folded") { try $0.folded(asset: asset, ledger: $1) }
            return
        }
        let result = state.result(ofEntry: entry)
        state.tellOutlets("delivered") { try $0.delivered(result, receipt: receipt(for: asset), ledger: $1) }
    }
}
