import Dispatch

/// Everything a batch tracks, kept behind the batch's one lock.
struct BatchState {
    enum Phase { case planning, running, finished }

    /// One request's fate.
    struct Entry {
        let request: AssetRequest
        let isDependency: Bool
        let load: Int?
        /// The loads this entry's load depends on (its plugin's declared dependencies).
        var prerequisiteLoads: [Int] = []
        var plugin: String?
        var outcome: AssetOutcome?
        var duration: Duration = .zero

        func result() -> AssetResult {
            AssetResult(
                request: request, plugin: plugin, isDependency: isDependency,
                outcome: outcome ?? .cancelled, duration: duration, loadIndex: load)
        }
    }

    /// One distinct load and the requests waiting for it.
    struct Load {
        let weight: Int64
        /// Whether it has an operation (a load that failed while planning has none).
        let runs: Bool
        var waiters: [Int] = []
        var outcome: AssetOutcome?
        var duration: Duration = .zero
    }

    var phase = Phase.planning
    var cancelRequested = false
    var entries: [Entry] = []
    var loads: [Load] = []
    var operations: [AssetOperation] = []
    var progress: ProgressTracker
    var planning: Duration = .zero
    var report: PreloadReport?
    /// When per-asset hooks may run.
    var ordering: AssetEventOrdering

    init(progressInterval: Duration, eventOrder: AssetEventOrder = .completion) {
        progress = ProgressTracker(interval: progressInterval)
        ordering = AssetEventOrdering(order: eventOrder)
    }

    /// The entries `plan` made from index `first` on, before they are matched with loads.
    static func entries(of plan: BatchPlanner, from first: Int) -> [Entry] {
        plan.entries[first...].map { planned in
            var entry = Entry(request: planned.request, isDependency: planned.isDependency, load: planned.node)
            if let node = planned.node {
                entry.plugin = plan.nodes[node].planned.plugin
                entry.prerequisiteLoads = plan.nodes[node].dependencies.map(\.node)
                if let failure = plan.nodes[node].failure { entry.outcome = .failed(failure) }
            } else if let failure = planned.failure {
                entry.outcome = .failed(failure)
            }  // else: cancelled before it was planned; no outcome means cancelled
            return entry
        }
    }

    /// Takes in the loads `plan` made since the last call and `newEntries` (from
    /// ``entries(of:from:)``). Returns the new entries whose outcome is already known, to be
    /// announced: failed while planning, or merged into a load that has already finished.
    mutating func extend(from plan: BatchPlanner, entries newEntries: [Entry]) -> [Int] {
        for node in loads.count..<plan.nodes.count {
            let runs = plan.nodes[node].failure == nil
            let weight = runs ? plan.nodes[node].weight : 0
            loads.append(Load(weight: weight, runs: runs))
            if runs { progress.addLoad(weight: weight) }
        }
        var known: [Int] = []
        for var entry in newEntries {
            let index = entries.count
            if entry.outcome == nil, let node = entry.load {
                if let outcome = loads[node].outcome {
                    entry.outcome = outcome
                    entry.duration = loads[node].duration
                } else {
                    loads[node].waiters.append(index)
                }
            }
            if entry.outcome != nil { known.append(index) }
            ordering.added(entry)
            entries.append(entry)
        }
        return known
    }

    /// Records a load's outcome for every request waiting on it; returns those entries.
    mutating func record(load: Int, outcome: AssetOutcome, duration: Duration) -> [Int] {
        loads[load].outcome = outcome
        loads[load].duration = duration
        let waiters = loads[load].waiters
        loads[load].waiters = []
        for entry in waiters {
            entries[entry].outcome = outcome
            entries[entry].duration = duration
        }
        progress.complete(slot: load, weight: loads[load].weight)
        return waiters
    }

    /// Ends the batch: requests without an outcome count as cancelled.
    mutating func finish(elapsed: Duration) -> PreloadReport {
        phase = .finished
        operations = []
        let report = PreloadReport(
            results: entries.map { $0.result() }, elapsed: elapsed, planning: planning, wasCancelled: cancelRequested)
        self.report = report
        return report
    }
}

/// Runs a batch's hooks on a serial queue, in the order events are handed to it.
///
/// Events are handed over while the batch holds its lock, so their order is the order in which
/// they happened; the hooks themselves run later on the queue, with no lock held.
struct HookDelivery: Sendable {
    let hooks: PreloadHooks
    let queue: DispatchQueue

    var wantsProgress: Bool { hooks.onProgress != nil }
    var wantsAssetEvents: Bool { hooks.onAssetLoaded != nil || hooks.onAssetFailed != nil }

    func progress(_ progress: PreloadProgress) {
        guard let hook = hooks.onProgress else { return }
        queue.async { hook(progress) }
    }

    func asset(_ result: AssetResult) {
        switch result.outcome {
        case .loaded: if let hook = hooks.onAssetLoaded { queue.async { hook(result) } }
        case .failed: if let hook = hooks.onAssetFailed { queue.async { hook(result) } }
        case .cancelled: break
        }
    }

    func completion(_ report: PreloadReport, then finished: @escaping @Sendable () -> Void) {
        let hook = hooks.onCompletion
        queue.async {
            hook?(report)
            finished()
        }
    }
}
