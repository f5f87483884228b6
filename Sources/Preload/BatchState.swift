import Dispatch

/// Everything a batch tracks, kept behind the batch's one lock.
struct BatchState {
    enum Phase { case planning, running, finished }

    /// One request's fate.
    struct Entry {
        let request: AssetRequest
        let isDependency: Bool
        let load: Int?
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
        var waiters: [Int] = []
    }

    var phase = Phase.planning
    var cancelRequested = false
    var entries: [Entry] = []
    var loads: [Load] = []
    var operations: [AssetOperation] = []
    var progress = ProgressTracker(totalUnits: 0, totalLoads: 0, interval: .zero)
    var report: PreloadReport?

    /// Installs a finished plan: entries, loads, and failures found while planning.
    /// Returns the entries that already failed.
    mutating func install(_ plan: BatchPlanner, plugins: [String?], interval: Duration) -> [Int] {
        loads = plan.nodes.map { Load(weight: $0.failure == nil ? $0.weight : 0) }
        var failed: [Int] = []
        entries = plan.entries.enumerated().map { index, planned in
            var entry = Entry(request: planned.request, isDependency: planned.isDependency, load: planned.node)
            if let node = planned.node {
                entry.plugin = plugins[node]
                if let failure = plan.nodes[node].failure {
                    entry.outcome = .failed(failure)
                    failed.append(index)
                } else {
                    loads[node].waiters.append(index)
                }
            } else if let failure = planned.failure {
                entry.outcome = .failed(failure)
                failed.append(index)
            }  // else: cancelled before planning; no outcome means cancelled
            return entry
        }
        let running = plan.nodes.filter { $0.failure == nil }
        progress = ProgressTracker(
            totalUnits: running.reduce(0) { $0 + $1.weight }, totalLoads: running.count, interval: interval)
        phase = .running
        return failed
    }

    /// Records a load's outcome for every request waiting on it; returns those entries.
    mutating func record(load: Int, outcome: AssetOutcome, duration: Duration) -> [Int] {
        let waiters = loads[load].waiters
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
            results: entries.map { $0.result() }, elapsed: elapsed, wasCancelled: cancelRequested)
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
