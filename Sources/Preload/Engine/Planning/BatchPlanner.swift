import PreloadConcurrency
import Foundation

/// The plan stage of a batch: walks the caller's folders, resolves every request, merges
/// requests for the same asset, cuts the assets into loads and queues them, then queues the
/// completion operation behind them all. Runs off the caller's thread. What it decides goes to
/// the batch's recorder, which it holds only as ``PlanningRecords`` (write-only: it reads
/// nothing back); the loads it makes get the batch's ``LoadEnvironment``, and it keeps them
/// itself (``PlannedLoads``) until planning ends.
///
/// Planning is spread over up to `workers` threads: each takes a chunk of the caller's
/// requests, resolves them (one `open` of each file, a claim, the plugin's dependencies: no
/// lock held), merges them by key in the ``MergeTable``, records the new assets (one lock of
/// the batch per chunk), cuts them into loads and queues them. Requests whose plugins declare
/// dependencies (atlases, packs) are planned afterwards, one at a time, by the
/// ``DependencyPlanner``, which follows their dependencies and refuses cycles.
final class BatchPlanner: Sendable {
    /// How many operations one fan-in step gathers. corelibs' `addDependency` scans the
    /// dependent's list linearly, so one completion operation depending on thousands of loads
    /// would cost O(n²); a two-level fan-in keeps every list short.
    static let fanInWidth = 64

    /// Where its decisions go.
    let recorder: any PlanningRecords
    /// The caller's requests, as given.
    let callers: [AssetRequest]
    let environment: LoadEnvironment
    let options: PreloadOptions
    let registry: PluginRegistry
    let queue: OperationQueue
    let workers: Int
    /// Which asset each key was merged into, while planning.
    let mergeTable = MergeTable()
    /// The operations made so far.
    let loads = PlannedLoads()
    /// The requests whose paths sources own, prepared before they are planned.
    let sources: PreparedSources

    init(
        callers: [AssetRequest], recorder: any PlanningRecords, environment: LoadEnvironment, options: PreloadOptions, registry: PluginRegistry,
        queue: OperationQueue,
        workers: Int, sources: PreparedSources
    ) {
        self.sources = sources
        self.recorder = recorder
        self.callers = callers
        self.environment = environment
        self.options = options
        self.registry = registry
        self.queue = queue
        self.workers = max(workers, 1)
    }

    /// Whether planning should stop: the batch is being cancelled (entries left without an
    /// asset are reported cancelled).
    var isCancelled: Bool { environment.isCancelled }

    /// Plans the batch and queues its loads, then its completion.
    func launch() {
        let started = ContinuousClock.now
        let sourced = sources.prefetch(callers)
        let (requests, entries, expanded, bulk, names) = expandFolders()
        let table = PlannedTable(
            callers: requests, capacity: entries, plugins: registry.registeredPlugins, files: registry.files, nameWarnings: names.warnings)
        let resolver = RequestResolver(
            registry: registry, table: table, weighting: options.progressWeighting, estimatesDecodedBytes: environment.admission != nil,
            memory: environment.memory, sources: sources, bulk: bulk,
            // A caller's request may be a source's if prefetching found one, or folders and
            // expanders made other requests; else no source is asked again per request.
            callersMayBeSourced: sourced || expanded)
        let grouping = LoadGrouping(requestCount: requests.count, workers: workers, budget: environment.admission?.limit)
        recorder.reserveStore(adding: requests.count)
        mergeTable.reserveCapacity(requests.count)
        if plansInRequestOrder {
            planInOrder(requests, entries: entries, resolver: resolver, grouping: grouping, started: started)
            return
        }
        let chunks = PlanningChunks(count: requests.count, workers: workers, multipleOf: grouping.maxAssets)
        let deferred = PreloadMutex<[(entry: Int, resolved: ResolvedRequest)]>([])
        let spread = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: min(workers, chunks.count)) { _ in
            while let callers = chunks.next() {
                let found = planLeaves(callers, of: requests, resolver: resolver, grouping: grouping)
                if !found.isEmpty { deferred.withLock { $0 += found } }
            }
        }
        let gathered = ContinuousClock.now
        var planner = DependencyPlanner(batch: self, resolver: resolver, grouping: grouping, firstDependencyEntry: entries)
        for (entry, resolved) in deferred.withLock({ $0 }).sorted(by: { $0.entry < $1.entry }) {
            planner.plan(caller: entry, resolved)
        }
        planner.sealOpenLoad()
        finishPlanning(alone: (spread - started) + (ContinuousClock.now - gathered))
    }

    /// Replaces folder requests by the files found in them (as the source that has each folder
    /// lists it: a source's, a container's, else the disk's), and files that stand for many
    /// assets (``ExpandingPlugin``) by those assets (before anything is planned).
    /// Returns the caller's requests to plan: the files found; those that cannot be loaded as
    /// found (a name that is not UTF-8, a folder that cannot be listed) are entries after them,
    /// failed here. `entries` counts both: the first dependency entry's number; `expanded` tells
    /// whether any request was replaced; `names`, which were renamed, their store names being
    /// an earlier request's (``StoreNameClaims``).
    private func expandFolders() -> (requests: CallerRequests, entries: Int, expanded: Bool, bulk: BulkExpansions, names: StoreNameClaims) {
        var given = callers
        let expands = registry.hasExpanders && given.contains { registry.expander(of: $0) != nil }
        guard expands || given.contains(where: \.isFolder) else {
            var requests = CallerRequests(given)
            let names = StoreNameClaims(renaming: &requests)
            if !names.warnings.isEmpty {  // the report names them as stored
                recorder.recordCallers(requests, skipped: [], skipReasons: [:], named: Array(requests.indices), unloadable: [])
            }
            return (requests, requests.count, false, BulkExpansions(), names)
        }
        // A stand-in is expanded (a baked pack's entries) in its origin's place; one that could
        // not be prepared is planned as it is (resolving it fails with the preparation's error,
        // naming its path), never expanded from a file that is not there. A folder is not
        // prepared: the source that owns it lists it (one that lists none fails it by name).
        var notFetched: [AssetRequest] = []
        given = given.compactMap { request in
            guard !request.isFolder else { return request }
            guard let local = try? sources.local(request) else {
                notFetched.append(request)
                return nil
            }
            return local
        }
        var found = FolderDiscovery(registry: registry, threads: workers, files: sources.serving(registry.files)).expand(given)
        // The files a source's folders listed are prepared together, as the caller's were.
        if callers.contains(where: { $0.isFolder && sources.owns($0.path) }) { sources.prefetch(Array(found.requests)) }
        found.requests += notFetched
        let names = StoreNameClaims(renaming: &found.requests)
        // The batch's callers are the planned requests themselves (one list, shared), not a copy:
        // a baked pack of a million entries would hold two. (Its entries are not requests until read.)
        let expanded = found.unloadable.isEmpty ? found.requests : found.requests + found.unloadable.map { AssetRequest(path: $0.path) }
        recorder.recordCallers(
            expanded, skipped: found.skipped, skipReasons: found.skipReasons, named: found.named, unloadable: found.unloadable)
        environment.expansions = found.requests.expansions  // before any load is queued
        return (found.requests, found.requests.count + found.unloadable.count, true, found.requests.expansions, names)
    }

    /// Whether loads are queued in request order, dependencies included: under a memory budget
    /// with assets handed on in an order other than completion order. Otherwise the loads of an
    /// atlas's sprites, planned after every plain file, would start last, and the assets loaded
    /// before them would fill the budget waiting for the atlas that comes before them.
    private var plansInRequestOrder: Bool {
        environment.admission?.limit != nil && options.assetEventOrder != .completion
    }

    /// Plans the caller's requests on this thread, a few at a time (loads are cut within them),
    /// each few followed by their requests' dependencies, so that loads are queued in request
    /// order.
    private func planInOrder(
        _ requests: CallerRequests, entries: Int, resolver: RequestResolver, grouping: LoadGrouping, started: ContinuousClock.Instant
    ) {
        var planner = DependencyPlanner(batch: self, resolver: resolver, grouping: grouping, firstDependencyEntry: entries)
        var first = 0
        while first < requests.count {
            let callers = first..<min(requests.count, first + min(grouping.maxAssets, 16))
            for (entry, resolved) in planLeaves(callers, of: requests, resolver: resolver, grouping: grouping) {
                planner.plan(caller: entry, resolved)
            }
            planner.sealOpenLoad()
            first = callers.upperBound
        }
        finishPlanning(alone: ContinuousClock.now - started)
    }

    /// Plans the caller's requests `callers`: failures are recorded, requests that depend on
    /// nothing are merged into assets and queued in loads, and the others are returned for the
    /// ``DependencyPlanner``.
    private func planLeaves(
        _ callers: Range<Int>, of requests: CallerRequests, resolver: RequestResolver, grouping: LoadGrouping
    ) -> [(entry: Int, resolved: ResolvedRequest)] {
        guard !isCancelled else { return [] }  // entries with no asset are reported cancelled
        var placements: [BatchRecorder.Placement] = []
        placements.reserveCapacity(callers.count)
        var deferred: [(entry: Int, resolved: ResolvedRequest)] = []
        var fresh: [LoadGrouping.Item] = []
        fresh.reserveCapacity(callers.count)
        var allowance = ReadAheadAllowance(resolver.readAhead)
        // The last request placed on an asset: a request repeating it (the same path, plugin and
        // options) is the same asset, placed without opening, reading or claiming the file again.
        // (Its entry and where its placement is: no copy of its plugin's name per request.)
        var last: (entry: Int, placement: Int)?
        // The given requests are read where they are, without a bounds check per read. (Each is
        // still copied once when it is handed to the resolver, ~310 instructions per request with
        // its destruction: a value read through a pointer is copied for the call; callgrind,
        // issue 50.) An entry a bulk plugin listed is resolved from its listing, not made.
        requests.given.withUnsafeBufferPointer { given in
            for entry in callers {
                if let placed = last, requests.repeats(entry, placed.entry, in: given),
                    case .placed(_, let asset, let plugin, let weight) = placements[placed.placement]
                {
                    placements.append(.placed(entry: entry, asset: asset, plugin: plugin, weight: weight))
                    continue
                }
                let request: ResolvedRequest
                do throws(AssetError) {
                    request = try resolver.resolveAndDeclare(caller: entry, of: requests, given: given, readingAhead: &allowance)
                } catch {
                    placements.append(.failed(entry: entry, error))
                    continue
                }
                guard request.isLeaf else {
                    deferred.append((entry, request))
                    continue
                }
                // Merging by key, outside the batch's lock (the table has locks of its own).
                let asset = mergeTable.claim(request.keyHash, for: entry) { resolver.table.sameKey(entry, as: $0) }
                placements.append(.placed(entry: entry, asset: asset, plugin: request.plugin.index, weight: request.weight))
                last = (entry, placements.count - 1)
                if asset == entry {
                    if let note = request.note { environment.notes.keep(note, for: asset) }
                    fresh.append(
                        LoadGrouping.Item(
                            item: LoadItem(asset: asset, resolved: request), work: request.work, alone: request.plugin.loadsAsynchronously))
                }
            }
        }
        recorder.record(placements)
        install(grouping.loads(fresh), from: resolver.table)
        return deferred
    }

    /// Makes a ``LoadOperation`` for each list of items (what planning found for each in
    /// `table`), keeps them, and queues them (a load of a cancelled batch reports its assets
    /// cancelled as it starts). Each waits for `dependencies`, through fan-in steps when they are
    /// many (a pack of 20,000 entries: one list of 20,000 would cost O(n²) to build).
    func install(_ items: [[LoadItem]], from table: PlannedTable, dependencies: [LoadOperation] = []) {
        guard !items.isEmpty else { return }
        var gathering: [Operation] = []
        let kept = items.map(LoadItems.init)  // a plain run as its range
        let operations = kept.map { items in
            let load = LoadOperation(items: items, table: table, environment: environment)
            load.queuePriority = options.priority.queuePriority
            gathering += Self.fanIn(dependencies, into: load)
            return load
        }
        for operation in gathering { operation.queuePriority = options.priority.queuePriority }
        loads.add(operations, covering: kept)
        queue.addOperations(gathering + operations, waitUntilFinished: false)
    }

    /// Ends planning: the progress total is known, and the completion operation is queued
    /// behind every load.
    private func finishPlanning(alone: Duration) {
        let finishing = ContinuousClock.now
        recorder.recordPlanningFinished()
        let all = loads.takeAll()
        mergeTable.removeAll()  // merging is over
        let completion = BlockOperation { [recorder] in recorder.complete() }
        let gathering = Self.fanIn(all, into: completion)
        for operation in gathering + [completion] { operation.queuePriority = options.priority.queuePriority }
        recorder.recordPlanningWork(
            thread: alone + (ContinuousClock.now - finishing), queuedOperations: all.count + gathering.count + 1, loads: all.count)
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
