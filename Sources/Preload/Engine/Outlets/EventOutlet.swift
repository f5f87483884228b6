import Dispatch

/// The events outlet: runs a batch's hooks on a serial queue, in the order events are handed
/// to it.
///
/// Events are handed over while the batch holds its lock, so their order is the order in which
/// they happened; the hooks themselves run later on the queue, with no lock held. Which results
/// are handed over when is ``AssetEventOrdering``'s. In the outlets' list (``BatchOutlets``) it
/// takes the delivered results and the progress snapshots; the recorder hands it the report
/// last (``completion(_:then:)``), since the batch ends when the completion hook has run.
final class EventOutlet: BatchOutlet, Sendable {
    let hooks: PreloadHooks
    let queue: DispatchQueue

    /// Hooks on a serial queue of their own, targeting the main queue for main-actor hooks, else
    /// `callbackQueue` if given: serial even when that queue is concurrent, so one batch's hooks
    /// run one at a time and in order.
    init(hooks: PreloadHooks, callbackQueue: DispatchQueue?) {
        self.hooks = hooks
        let target = hooks.runsOnMainActor ? DispatchQueue.main : callbackQueue
        queue = target.map { DispatchQueue(label: "preload.batch.hooks", target: $0) } ?? DispatchQueue(label: "preload.batch.hooks")
    }

    var wantsProgress: Bool { hooks.onProgress != nil }
    var wantsAssetEvents: Bool { hooks.onAssetLoaded != nil || hooks.onAssetFailed != nil }

    func progress(_ progress: PreloadProgress) {
        guard let hook = hooks.onProgress else { return }
        queue.async { hook(progress) }
    }

    func asset(_ result: AssetResult) {
        guard wantsAssetEvents, !result.isDependency || hooks.includesDependencies else { return }
        switch result.outcome {
        case .loaded: if let hook = hooks.onAssetLoaded { queue.async { hook(result) } }
        case .failed: if let hook = hooks.onAssetFailed { queue.async { hook(result) } }
        case .cancelled: break
        }
    }

    func delivered(_ result: AssetResult, receipt: @autoclosure () -> HandOverReceipt, ledger: borrowing BatchState) {
        asset(result)
    }

    func progressDue(_ progress: PreloadProgress, ledger: borrowing BatchState) {
        self.progress(progress)
    }

    func completion(_ report: PreloadReport, then finished: @escaping @Sendable () -> Void) {
        let hook = hooks.onCompletion
        queue.async {
            hook?(report)
            finished()
        }
    }
}
