import PreloadConcurrency
import Foundation
import Synchronization

extension BatchRun {
    /// How many operations one fan-in step gathers. corelibs' `addDependency` scans the
    /// dependent's list linearly, so one completion operation depending on thousands of loads
    /// would cost O(n²); a two-level fan-in keeps every list short.
    static let fanInWidth = 64

    /// Plans the batch and queues its loads, then its completion. Runs off the caller's thread.
    ///
    /// Planning is spread over up to `workers` threads: each takes a chunk of the caller's
    /// requests, resolves them (one `open` of each file, a claim, the plugin's dependencies: no
    /// lock held), merges them by key in the ``MergeTable``, records the new assets (one lock of
    /// the batch per chunk), cuts them into loads and queues them. Requests whose plugins declare
    /// dependencies (atlases, packs) are planned afterwards, one at a time, by the
    /// ``DependencyPlanner``, which follows their dependencies and refuses cycles.
    func launch(registry: PluginRegistry, queue: OperationQueue, workers: Int) {
        let started = ContinuousClock.now
        let requests = expandFolders(registry: registry, workers: workers)
        let resolver = RequestResolver(
            registry: registry, weighting: options.progressWeighting, estimatesDecodedBytes: budget != nil, memory: memory)
        let grouping = LoadGrouping(requestCount: requests.count, workers: workers)
        store?.reserveCapacity(adding: requests.count)
        mergeTable.reserveCapacity(requests.count)
        if plansInRequestOrder {
            planInOrder(requests, resolver: resolver, grouping: grouping, queue: queue, started: started)
            return
        }
        let chunks = PlanningChunks(count: requests.count, workers: workers, multipleOf: grouping.maxAssets)
        let deferred = PreloadMutex<[(entry: Int, resolved: ResolvedRequest)]>([])
        let spread = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: min(workers, chunks.count)) { _ in
            while let callers = chunks.next() {
                let found = planLeaves(callers, of: requests, resolver: resolver, grouping: grouping, queue: queue)
                if !found.isEmpty { deferred.withLock { $0 += found } }
            }
        }
        let gathered = ContinuousClock.now
        var planner = DependencyPlanner(run: self, resolver: resolver, grouping: grouping, queue: queue)
        for (entry, resolved) in deferred.withLock({ $0 }).sorted(by: { $0.entry < $1.entry }) {
            planner.plan(caller: entry, resolved)
        }
        planner.sealOpenLoad()
        finishPlanning(queue: queue, alone: (spread - started) + (ContinuousClock.now - gathered))
    }

    /// Whether loads are queued in request order, dependencies included: under a memory budget
    /// with assets handed on in an order other than completion order. Otherwise the loads of an
    /// atlas's sprites, planned after every plain file, would start last, and the assets loaded
    /// before them would fill the budget waiting for the atlas that comes before them.
    private var plansInRequestOrder: Bool {
        budget?.limit != nil && options.assetEventOrder != .completion
    }

    /// Plans the caller's requests on this thread, a few at a time (loads are cut within them),
    /// each few followed by their requests' dependencies, so that loads are queued in request
    /// order.
    private func planInOrder(
        _ requests: [AssetRequest], resolver: RequestResolver, grouping: LoadGrouping, queue: OperationQueue,
        started: ContinuousClock.Instant
    ) {
        var planner = DependencyPlanner(run: self, resolver: resolver, grouping: grouping, queue: queue)
        var first = 0
        while first < requests.count {
            let callers = first..<min(requests.count, first + min(grouping.maxAssets, 16))
            for (entry, resolved) in planLeaves(callers, of: requests, resolver: resolver, grouping: grouping, queue: queue) {
                planner.plan(caller: entry, resolved)
            }
            planner.sealOpenLoad()
            first = callers.upperBound
        }
        finishPlanning(queue: queue, alone: ContinuousClock.now - started)
    }

    /// Plans the caller's requests `callers`: failures are announced, requests that depend on
    /// nothing are merged into assets and queued in loads, and the others are returned for the
    /// ``DependencyPlanner``.
    private func planLeaves(
        _ callers: Range<Int>, of requests: [AssetRequest], resolver: RequestResolver, grouping: LoadGrouping, queue: OperationQueue
    ) -> [(entry: Int, resolved: ResolvedRequest)] {
        guard !isCancelled else { return [] }  // entries with no asset are reported cancelled
        let resolved = callers.map { resolver.resolveAndDeclare(requests[$0]) }
        // Merging by key, outside the batch's lock (the table has locks of its own).
        let assets = zip(callers, resolved).map { entry, result -> Int in
            guard case .success(let request) = result, request.isLeaf else { return -1 }
            return mergeTable.claim(request.key, for: entry)
        }
        var deferred: [(entry: Int, resolved: ResolvedRequest)] = []
        var fresh: [(asset: Int, resolved: ResolvedRequest)] = []
        let failed = state.withLock { state -> Bool in
            var failed = false
            for (offset, result) in resolved.enumerated() {
                let entry = callers.lowerBound + offset
                switch result {
                case .failure(let error):
                    announce(state.fail(entry, error), in: &state)
                    failed = true
                case .success(let request) where !request.isLeaf:
                    deferred.append((entry, request))
                case .success(let request):
                    let asset = assets[offset]
                    if state.place(entry, on: asset, plugin: request.planned.plugin) {
                        announce(entry, in: &state)
                    } else if asset == entry {
                        state.plan(asset, weight: request.weight)
                        fresh.append((asset, request))
                    }
                }
            }
            return failed
        }
        if failed { assetFailed() }
        install(grouping.loads(fresh.map { (LoadItem(asset: $0.asset, resolved: $0.resolved), $0.resolved.work) }), queue: queue)
        return deferred
    }

    /// Makes a ``LoadOperation`` for each list of items, records them, and queues them (cancelled
    /// first if the batch is).
    func install(_ loads: [[LoadItem]], dependencies: [LoadOperation] = [], queue: OperationQueue) {
        guard !loads.isEmpty else { return }
        let operations = loads.map { items in
            let load = LoadOperation(items: items, run: self)
            load.queuePriority = options.priority.queuePriority
            for dependency in dependencies { load.addDependency(dependency) }
            return load
        }
        let cancelled = state.withLock { state in
            state.register(operations, covering: loads.map { $0.map(\.asset) })
            return state.cancelRequested
        }
        if cancelled { for load in operations { load.cancel() } }
        queue.addOperations(operations, waitUntilFinished: false)
    }

    /// Ends planning: the progress total is known, and the completion operation is queued
    /// behind every load.
    private func finishPlanning(queue: OperationQueue, alone: Duration) {
        let finishing = ContinuousClock.now
        let (all, delay) = state.withLock { state -> ([LoadOperation], Duration?) in
            state.planning = ContinuousClock.now - startedAt
            state.phase = .running
            state.progress.isPlanned = true
            if let handOff = state.progress.handOff {
                let total = state.assetOfEntry.prefix(state.callers.count).enumerated().count { $0.offset == $0.element }
                state.progress.handOff = (done: handOff.done, total: total)
            }
            return (state.loads, deliverProgress(&state))
        }
        if let delay { scheduleTrailingProgress(after: delay) }
        mergeTable.removeAll()  // merging is over
        let completion = BlockOperation { [self] in complete() }
        let gathering = Self.fanIn(all, into: completion)
        for operation in gathering + [completion] { operation.queuePriority = options.priority.queuePriority }
        state.withLock { state in
            state.diagnostics.planningThread = alone + (ContinuousClock.now - finishing)
            state.diagnostics.queuedOperations = all.count + gathering.count + 1
            state.diagnostics.loads = all.count
        }
        queue.addOperations(gathering + [completion], waitUntilFinished: false)
        Self.rescheduleStaleReadiness(on: queue)
    }

    /// Works around a lost wakeup in corelibs' `OperationQueue` that left about one batch in
    /// 250,000 waiting forever with no thread running (found by `Fuzz/run coordinator`).
    /// `addOperations` reads an operation's `isReady` and stores it as the queue's cached
    /// readiness; when the operation's last dependency finishes between that read and that
    /// store, the store writes back a stale `false`. The queue's scheduling pass then sees the
    /// dependency count at zero, corrects the cache to `true`, but does not dispatch it: only a
    /// later pass would, and after the batch's last enqueue there may be none. Every enqueue of
    /// the batch happened before this call (the planning threads' returned before it), so each
    /// correction precedes it; one more scheduling pass (which setting the width does, even to
    /// the same value) dispatches whatever was left ready.
    static func rescheduleStaleReadiness(on queue: OperationQueue) {
        queue.maxConcurrentOperationCount = queue.maxConcurrentOperationCount
    }

    /// Makes `completion` depend on every operation in `operations`, through intermediate
    /// no-op operations when there are many. Returns the intermediates, to be queued too.
    static func fanIn(_ operations: [Operation], into completion: Operation) -> [Operation] {
        guard operations.count > fanInWidth else {
            for operation in operations { completion.addDependency(operation) }
            return []
        }
        var gathering: [Operation] = []
        var start = 0
        while start < operations.count {
            let group = BlockOperation {}
            for operation in operations[start..<min(start + fanInWidth, operations.count)] {
                group.addDependency(operation)
            }
            gathering.append(group)
            start += fanInWidth
        }
        return gathering + fanIn(gathering, into: completion)
    }
}

/// The caller's requests cut into chunks that planning threads take one at a time: enough
/// chunks for every thread, none so large that one thread is left with most of the work, each
/// a whole number of full loads (loads are cut within a chunk).
final class PlanningChunks: Sendable {
    let size: Int
    let count: Int
    private let total: Int
    private let taken = Atomic(0)

    init(count total: Int, workers: Int, multipleOf load: Int) {
        self.total = total
        let wanted = min(1024, max(16, (total + 2 * workers - 1) / max(1, 2 * workers)))
        size = max(1, (wanted + load - 1) / load) * load
        count = (total + size - 1) / size
    }

    /// The next chunk's range of caller indices, or `nil` when all are taken.
    func next() -> Range<Int>? {
        let chunk = taken.wrappingAdd(1, ordering: .relaxed).oldValue
        guard chunk < count else { return nil }
        return chunk * size..<min(total, (chunk + 1) * size)
    }
}
