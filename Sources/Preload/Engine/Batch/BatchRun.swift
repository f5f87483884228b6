import PreloadConcurrency
import Dispatch
import Foundation
import Logging
import Synchronization

/// The machinery behind one ``PreloadBatch``: plans the requests (`BatchLaunch.swift`), runs
/// their ``LoadOperation``s on the coordinator's queue, records every asset's outcome, stores
/// it, advances progress, hands events to the hooks, and completes once.
///
/// Bookkeeping is per load, not per file: a finished load stores its assets taking each store
/// shard's lock once, then records them, advances progress and hands events to the hooks with
/// one lock of the batch.
final class BatchRun: Sendable {
    /// The caller's requests: as given, then (once planning has walked them) with each folder
    /// replaced by the files found in it.
    var requests: [AssetRequest] { state.withLock { $0.callers } }
    /// How many of the batch's entries are the caller's (see ``requests``).
    var callerCount: Int { callers.load(ordering: .acquiring) }
    private let callers: Atomic<Int>
    let options: PreloadOptions
    let delivery: HookDelivery
    let store: AssetStore?
    let logger: Logger
    let startedAt: ContinuousClock.Instant
    let state: BatchLock
    /// What loads need: the coordinator's memory pool and file size limit.
    let memory: AssetMemory
    let maxFileBytes: Int
    /// Where loaded assets wait for the engine (``PreloadOptions/handOff``).
    let handOff: AssetHandOff?
    /// The memory budget (``PreloadOptions/memoryBudget``); `nil` without one.
    let budget: DecodeBudget?
    let done = DispatchGroup()
    /// The memory pool's lock time when the batch started (see ``BatchDiagnostics/memoryLockHeld``).
    private let memoryLockHeldBefore: Duration
    /// Which asset each key was merged into, while planning.
    let mergeTable = MergeTable()
    private let completionCallback = PreloadMutex<(@Sendable () -> Void)?>(nil)
    /// Set by ``cancel()`` before any load is told: read by loads without the batch's lock, so
    /// that one starting while the others are being cancelled does not start a file.
    let cancelSignalled = Atomic(false)

    init(
        requests: [AssetRequest], options: PreloadOptions, hooks: PreloadHooks, callbackQueue: DispatchQueue?,
        store: AssetStore, logger: Logger, memory: AssetMemory, maxFileBytes: Int
    ) {
        callers = Atomic(requests.count)
        self.options = options
        // Serial even when the caller's queue is concurrent: hooks of one batch run in order.
        let target = hooks.runsOnMainActor ? DispatchQueue.main : callbackQueue
        let hookQueue = target.map { DispatchQueue(label: "preload.batch.hooks", target: $0) }
        delivery = HookDelivery(hooks: hooks, queue: hookQueue ?? DispatchQueue(label: "preload.batch.hooks"))
        self.store = options.storesAssets ? store : nil
        self.logger = logger
        self.memory = memory
        self.maxFileBytes = maxFileBytes
        handOff = options.handOff
        budget = options.memoryBudget.map { DecodeBudget(limit: $0) }
        startedAt = .now
        memoryLockHeldBefore = memory.lockHeld
        var initial = BatchState(callers: requests, progressInterval: options.progressInterval, eventOrder: options.assetEventOrder)
        if options.handOff != nil && options.completesAfterHandOff { initial.progress.handOff = (done: 0, total: 0) }
        state = BatchLock(initial)
        done.enter()
    }

    /// Called once when the batch completes, before any waiter is released.
    var onComplete: (@Sendable () -> Void)? {
        get { completionCallback.withLock { $0 } }
        set { completionCallback.withLock { $0 = newValue } }
    }

    var isCancelled: Bool { state.withLock { $0.cancelRequested } }

    /// Replaces folder requests by the files found in them (before anything is planned).
    /// Returns the caller's requests to plan: the files found; those that cannot be loaded as
    /// found (a name that is not UTF-8) are entries after them, failed here.
    func expandFolders(registry: PluginRegistry, workers: Int) -> [AssetRequest] {
        let given = requests
        guard given.contains(where: \.isFolder) else { return given }
        let found = FolderDiscovery(registry: registry, threads: max(workers, 1)).expand(given)
        let unloadable = found.unloadable.map { AssetRequest(path: $0.path) }
        state.withLock { state in
            state.replaceCallers(found.requests + unloadable, skipped: found.skipped)
            for (offset, error) in found.unloadable.enumerated() {
                announce(state.fail(found.requests.count + offset, error), in: &state)
            }
        }
        callers.store(found.requests.count + unloadable.count, ordering: .releasing)
        if !found.unloadable.isEmpty { assetFailed() }
        return found.requests
    }

    /// Cancels every load that has not finished, and the planning still to come.
    func cancel() {
        let loads = state.withLock { state -> [LoadOperation] in
            guard state.phase != .finished, !state.cancelRequested else { return [] }
            state.cancelRequested = true
            return state.loads
        }
        cancelSignalled.store(true, ordering: .releasing)
        for load in loads { load.cancel() }
        withdrawFromHandOff()
    }

    // MARK: Loads reporting

    /// An asset failed: under fail-fast, the batch is cancelled now.
    func assetFailed() {
        guard options.failurePolicy == .failFast else { return }
        cancel()
    }

    /// A load's assets are done: they go into the store (one lock of the store), then their
    /// outcomes are recorded, progress advances and their events go to the hooks (one lock of
    /// the batch). Called before the load's `isFinished` turns true.
    func loadFinished(_ finished: [FinishedAsset]) {
        let callers = callerCount  // assets numbered below it were planned for the caller's requests
        let storing = store?.insert(
            finished.compactMap { finished in
                finished.outcome.asset.map {
                    AssetStore.Entry(
                        name: finished.planned.request.name, path: finished.planned.path, plugin: finished.planned.plugin, asset: $0,
                        isDependency: finished.asset >= callers)
                }
            })
        let (delay, released, waitingTurnChange) = state.withLock { state -> (Duration?, Int, Int) in
            guard state.phase != .finished else { return (nil, 0, 0) }
            state.diagnostics.storeLockHeld += storing ?? .zero
            let released = budget == nil && handOff == nil ? 0 : settle(finished, callers: callers, in: &state)
            for index in finished.indices {
                // The first waiter made the asset: its request is the one stored above.
                let waiters = state.record(finished[index])
                guard waiters.more != nil || delivery.wantsAssetEvents || handOff != nil else { continue }
                for entry in waiters { announce(entry, in: &state, stored: entry == waiters.first) }
            }
            defer { state.handOff.waitingTurnChange = 0 }
            return (deliverProgress(&state), released, state.handOff.waitingTurnChange)
        }
        budget?.settle(released: released, waitingTurnChange: waitingTurnChange)
        if let delay { scheduleTrailingProgress(after: delay) }
        if logger.logLevel <= .debug {
            for case .failed(let error) in finished.map(\.outcome) { logger.debug("asset failed", metadata: ["error": "\(error)"]) }
        }
    }

    /// The outcomes of `dependencies` (all finished: their loads ran before the dependent's).
    func outcomes(of dependencies: [(request: AssetRequest, asset: Int)]) -> [AssetRequest: AssetOutcome] {
        state.withLock { state in
            var outcomes: [AssetRequest: AssetOutcome] = [:]
            for (request, asset) in dependencies { outcomes[request] = state.assets[asset].outcome ?? .cancelled }
            return outcomes
        }
    }

    /// An asset reports `fraction` done.
    func assetProgressed(_ asset: Int, fraction: Double) {
        guard
            let delay = state.withLock({ state -> Duration? in
                guard state.phase != .finished else { return nil }
                state.progress.advance(asset: asset, weight: state.assets[asset].weight, fraction: fraction)
                return deliverProgress(&state)
            })
        else { return }
        scheduleTrailingProgress(after: delay)
    }

    /// Stores the asset of `entry` (if it loaded and is not `stored` yet) and hands its result
    /// to the hooks, once the batch's ``AssetEventOrder`` lets it (with any results it was
    /// holding back).
    func announce(_ entry: Int, in state: inout BatchState, stored: Bool = false) {
        if !stored, let store, case .loaded(let asset) = state.outcome(ofEntry: entry) {
            let request = state.request(ofEntry: entry)
            store.insert(
                asset, name: request.name, path: request.path, plugin: state.assets[state.assetOfEntry[entry]].plugin,
                isDependency: entry >= state.callers.count)
        }
        guard delivery.wantsAssetEvents || handOff != nil else { return }
        for ready in state.ordering.finished(entry) { deliver(ready, in: &state) }
    }

    /// Hands the result of `entry` to the hooks and, if it is to be, to the engine's hand-off.
    private func deliver(_ entry: Int, in state: inout BatchState) {
        let result = state.result(ofEntry: entry)
        if delivery.wantsAssetEvents { delivery.asset(result) }
        if handOff != nil { queueForHandOff(result, entry: entry, in: &state) }
    }

    // MARK: Completion

    /// Called once by the completion operation, after every load has finished. Completes the
    /// batch, unless it waits for its assets to be handed over (then the last hand-over does).
    func complete() {
        let (deferred, waitingTurnChange) = state.withLock { state -> (Bool, Int) in
            guard state.phase == .running else { return (false, 0) }
            if delivery.wantsAssetEvents || handOff != nil {
                for held in state.ordering.flush() { deliver(held, in: &state) }
            }
            defer { state.handOff.waitingTurnChange = 0 }
            return (defersCompletion(&state), state.handOff.waitingTurnChange)
        }
        budget?.settle(released: 0, waitingTurnChange: waitingTurnChange)
        if !deferred { finishCompletion() }
    }

    /// Completes the batch: the report, the final progress, the completion hook.
    func finishCompletion() {
        let elapsed = ContinuousClock.now - startedAt
        completionCallback.withLock { callback in
            callback?()
            callback = nil
        }
        let report = state.withLock { state -> PreloadReport? in
            guard state.phase == .running else { return nil }
            state.diagnostics.memoryLockHeld = memory.lockHeld - memoryLockHeldBefore
            var report = state.finish(elapsed: elapsed)
            report.peakHeldBytes = budget?.peak ?? 0
            state.report = report
            delivery.progress(state.progress.finalSnapshot())
            delivery.completion(report) { [done] in done.leave() }
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

    // MARK: Progress hook

    /// Hands the progress hook a snapshot if one is due; returns the delay of a throttled one.
    func deliverProgress(_ state: inout BatchState) -> Duration? {
        guard delivery.wantsProgress else { return nil }
        return carryOut(state.progress.delivery(at: .now))
    }

    private func carryOut(_ decision: ProgressTracker.Delivery) -> Duration? {
        switch decision {
        case .none: return nil
        case .now(let snapshot): delivery.progress(snapshot); return nil
        case .after(let delay): return delay
        }
    }

    /// Delivers the latest progress after `delay`, when the throttle held it back.
    func scheduleTrailingProgress(after delay: Duration) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) { [self] in
            let again = state.withLock { state -> Duration? in
                guard state.phase != .finished else { return nil }
                return carryOut(state.progress.trailingDelivery(at: .now))
            }
            if let again { scheduleTrailingProgress(after: again) }
        }
    }
}
