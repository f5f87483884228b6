import Dispatch
import Foundation
import Logging
import Synchronization

/// One running preload: a handle to cancel it, watch its progress, and wait for its report.
///
/// Made by ``PreloadCoordinator``. A batch plans its requests off the caller's thread, queues
/// one ``AssetOperation`` per distinct load on the coordinator's `OperationQueue`, and ends with
/// a completion `BlockOperation` that depends on all of them and runs exactly once.
public final class PreloadBatch: Sendable {
    /// The requests, as given.
    public let requests: [AssetRequest]

    let options: PreloadOptions
    let delivery: HookDelivery
    let store: AssetStore?
    let logger: Logger
    let startedAt: ContinuousClock.Instant
    let state: Mutex<BatchState>
    private let done = DispatchGroup()
    private let completionCallback = Mutex<(@Sendable () -> Void)?>(nil)

    /// Called once when the batch completes, before any waiter is released (the coordinator
    /// uses it to stop tracking the batch).
    var onComplete: (@Sendable () -> Void)? {
        get { completionCallback.withLock { $0 } }
        set { completionCallback.withLock { $0 = newValue } }
    }

    init(requests: [AssetRequest], options: PreloadOptions, hooks: PreloadHooks,
         callbackQueue: DispatchQueue?, store: AssetStore, logger: Logger) {
        self.requests = requests
        self.options = options
        // Serial even when the caller's queue is concurrent: hooks of one batch run in order.
        let hookQueue = callbackQueue.map { DispatchQueue(label: "preload.batch.hooks", target: $0) }
        self.delivery = HookDelivery(hooks: hooks, queue: hookQueue ?? DispatchQueue(label: "preload.batch.hooks"))
        self.store = options.storesAssets ? store : nil
        self.logger = logger
        self.startedAt = .now
        self.state = Mutex(BatchState(progressInterval: options.progressInterval, eventOrder: options.assetEventOrder))
        done.enter()
    }

    /// Cancels every load that has not finished. The batch still completes (once), reporting
    /// the cancelled requests. Harmless after the batch finished.
    public func cancel() {
        let operations = state.withLock { state -> [AssetOperation] in
            guard state.phase != .finished, !state.cancelRequested else { return [] }
            state.cancelRequested = true
            return state.operations
        }
        for operation in operations { operation.cancel() }
    }

    /// Whether every request has been planned and its load queued (planning runs off the
    /// caller's thread; until then ``progress`` covers only what is planned so far).
    public var isPlanned: Bool { state.withLock { $0.phase != .planning } }

    /// Whether the batch has completed.
    public var isFinished: Bool { state.withLock { $0.phase == .finished } }

    /// Whether ``cancel()`` was called (directly, by task cancellation, or by fail-fast).
    public var isCancelled: Bool { state.withLock { $0.cancelRequested } }

    /// The progress now.
    public var progress: PreloadProgress {
        state.withLock { state in
            guard state.phase == .finished else { return state.progress.snapshot() }
            return state.progress.finalSnapshot()
        }
    }

    /// The report, once the batch has completed.
    public var report: PreloadReport? { state.withLock { $0.report } }

    /// Blocks until the batch has completed and its completion hook has run. Do not call it from
    /// a hook running on the same serial queue as this batch's hooks: they could never run.
    @available(*, noasync, message: "use PreloadCoordinator.preload(_:options:hooks:) async")
    public func waitUntilFinished() -> PreloadReport {
        done.wait()
        return report!
    }

    /// Runs `body` on `queue` once the batch has completed and its completion hook has run.
    public func whenFinished(on queue: DispatchQueue = .global(), _ body: @escaping @Sendable (PreloadReport) -> Void) {
        done.notify(queue: queue) { [self] in body(report!) }
    }

    // MARK: Completion

    /// Called once by the completion operation, after every load has finished.
    func complete() {
        let elapsed = ContinuousClock.now - startedAt
        completionCallback.withLock { callback in
            callback?()
            callback = nil
        }
        let report = state.withLock { state -> PreloadReport? in
            guard state.phase == .running else { return nil }
            if delivery.wantsAssetEvents {
                for held in state.ordering.flush(state.entries) { delivery.asset(state.entries[held].result()) }
            }
            let report = state.finish(elapsed: elapsed)
            delivery.progress(state.progress.finalSnapshot())
            delivery.completion(report) { [done] in done.leave() }
            return report
        }
        guard let report else { return }
        logger.debug(
            "preload batch finished",
            metadata: [
                "loaded": "\(report.loaded.count)", "failed": "\(report.failed.count)",
                "cancelled": "\(report.cancelled.count)", "seconds": "\(report.elapsedSeconds)",
            ])
    }
}

extension PreloadBatch: AssetOperationObserver {
    func operation(slot: Int, didProgress fraction: Double) {
        guard let delay = state.withLock({ state -> Duration? in
            guard state.phase != .finished else { return nil }
            let weight = state.loads[slot].weight
            state.progress.advance(slot: slot, weight: weight, fraction: fraction)
            return deliverProgress(&state)
        }) else { return }
        scheduleTrailingProgress(after: delay)
    }

    func operationWillFinish(slot: Int, outcome: AssetOutcome, duration: Duration) {
        if case .failed(let error) = outcome { logger.debug("asset failed", metadata: ["error": "\(error)"]) }
        let (delay, toCancel) = state.withLock { state -> (Duration?, [AssetOperation]) in
            guard state.phase != .finished else { return (nil, []) }
            for entry in state.record(load: slot, outcome: outcome, duration: duration) {
                announce(entry, in: &state)
            }
            let delay = deliverProgress(&state)
            guard case .failed = outcome, options.failurePolicy == .failFast, !state.cancelRequested else {
                return (delay, [])
            }
            state.cancelRequested = true
            return (delay, state.operations)
        }
        for operation in toCancel { operation.cancel() }
        if let delay { scheduleTrailingProgress(after: delay) }
    }

    /// Stores the asset of `entry` (if it loaded) and hands its result to the hooks, once the
    /// batch's ``AssetEventOrder`` lets it (with any results it was holding back).
    func announce(_ entry: Int, in state: inout BatchState) {
        if let store, case .loaded(let asset) = state.entries[entry].outcome {
            store.insert(
                asset, name: state.entries[entry].request.name, path: state.entries[entry].request.path,
                plugin: state.entries[entry].plugin ?? "")
        }
        guard delivery.wantsAssetEvents else { return }
        for ready in state.ordering.finished(entry, in: state.entries) { delivery.asset(state.entries[ready].result()) }
    }

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
        let nanoseconds = Int(delay.components.seconds) * 1_000_000_000 + Int(delay.components.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) { [self] in
            let again = state.withLock { state -> Duration? in
                guard state.phase != .finished else { return nil }
                return carryOut(state.progress.trailingDelivery(at: .now))
            }
            if let again { scheduleTrailingProgress(after: again) }
        }
    }
}
