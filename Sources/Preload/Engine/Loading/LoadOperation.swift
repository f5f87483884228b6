import PreloadConcurrency
import Foundation
import Synchronization

/// The unit of work on a coordinator's `OperationQueue`: a state-tracked asynchronous
/// `Operation` that loads one large file, or several small files one after another, each by
/// its plugin's ``LoaderPlugin/load(_:)``.
///
/// Every asset keeps its own outcome: one that fails fails alone, and the rest go on. A cancelled
/// operation stops between files (a running decode stops at its next cancellation check) and
/// reports the files it did not reach as cancelled. The outcomes are handed to the batch in one
/// go when the last file is done (a failure under fail-fast cancels the batch at once).
///
/// The operation announces `isExecuting` and `isFinished` with `willChangeValue`/`didChangeValue`
/// in the order corelibs Foundation needs (it has no KVO; `didChangeValue(forKey: "isFinished")`
/// is what frees the queue slot and starts dependents, and only counts once `isFinished` is
/// true). The outcomes are recorded *before* `isFinished` turns true, never from
/// `completionBlock`, which runs later on a global queue.
final class LoadOperation: Operation, @unchecked Sendable {
    private let state = PreloadMutex(LoadOperationState())
    /// What a file that declared no dependencies sees of them.
    private static let noDependencies: [AssetRequest: AssetOutcome] = [:]
    /// What is left to load; taken when the operation starts, so finished items are not kept.
    private let items: PreloadMutex<LoadItems>
    /// What the operation receives from its batch (values, the cancellation flag, the budget's
    /// admission) and where it sends what happened.
    private let environment: LoadEnvironment
    /// How each item is loaded on this thread and what its result means (its assets'
    /// ``AssetTimings/queued`` count from when the operation was made, just before it was queued).
    let loading: ItemLoading
    /// What planning found for each asset: its request, file, plugin (read by the asset's number).
    private let table: PlannedTable

    init(items: LoadItems, table: PlannedTable, environment: LoadEnvironment) {
        self.items = PreloadMutex(items)
        self.table = table
        self.environment = environment
        loading = ItemLoading(environment: environment, table: table, queuedAt: .now)
        super.init()
    }

    override var isAsynchronous: Bool { true }
    /// A load is cancelled through its batch (``CancellationFlag``), read more cheaply than
    /// corelibs' own flag (which takes a lock).
    override var isCancelled: Bool { environment.isCancelled }

    override var isExecuting: Bool { state.withLock { $0.isExecuting } }
    override var isFinished: Bool { state.withLock { $0.isFinished } }

    override func start() {
        let items = self.items.withLock { items in
            defer { items = .none }
            return items
        }
        if isCancelled {
            let now = ContinuousClock.now, thread = ThreadIdentity.current
            conclude(items.map { FinishedAsset($0, in: table, outcome: .cancelled, duration: .zero, started: now, thread: thread) })
            return
        }
        willChangeValue(forKey: "isExecuting")
        guard state.withLock({ $0.begin() }) else { return }
        didChangeValue(forKey: "isExecuting")
        // Under a memory budget, nothing is decoded until the items' estimated sizes fit: the
        // operation stays executing, holding no thread, until the budget resumes it.
        let bytes = items.reduce(0) { $0 + $1.decodedBytes }
        if bytes > 0, let budget = environment.admission {
            let asked = ContinuousClock.now
            let resumed: @Sendable () -> Void = { [self] in proceed(items, from: 0, finished: [], waited: .now - asked) }
            guard budget.acquire(bytes, orResume: resumed) else { return }
        }
        proceed(items, from: items.startIndex, finished: [], waited: .zero)
    }

    /// Loads `items` from `first` on, one after another; an asynchronous plugin's completion
    /// carries on from the next item, on whatever thread it calls from. `waited` is how long the
    /// memory budget kept the load waiting.
    private func proceed(_ items: consuming LoadItems, from first: Int, finished: [FinishedAsset], waited: Duration) {
        var finished = finished
        finished.reserveCapacity(items.count)
        var index = first
        // One clock read per file: a file's end is the next one's start.
        var started = ContinuousClock.now
        let thread = ThreadIdentity.current  // a thread-local read: the files below run on this thread
        let expansions = environment.expansions  // (most batches: none)
        // The last file's context, passed on to the next when its plugin kept no reference.
        var spare: LoadContext?
        while index < items.count {
            if isCancelled {
                let now = started
                finished += items[index...].map { FinishedAsset($0, in: table, outcome: .cancelled, duration: .zero, started: now, thread: thread) }
                break
            }
            if let (expansion, plugin, run) = bulkRun(in: items, from: index, expansions: expansions) {  // entries of one file, together
                started = loadRun(
                    run, of: items, by: expansion, plugin: plugin, started: started, thread: thread, waited: waited, into: &finished)
                index = run.upperBound
                continue
            }
            var dependencies = Self.noDependencies
            if items.hasDependencies(at: index) {  // most files declare none: nothing to look up
                switch outcomes(ofDependenciesOf: items[index]) {
                case .success(let known):
                    dependencies = known
                case .failure(let error):
                    finished.append(
                        FinishedAsset(items[index], in: table, outcome: .failed(error), duration: .zero, started: started, thread: thread))
                    environment.sink.send(.failed)
                    index += 1
                    started = .now
                    continue
                }
            }
            let asset = items.asset(at: index)
            let (plugin, warns) = table.pluginAndWarnings(asset)
            let request = table.planned(asset)
            // The bytes read ahead move into the context (the item keeps none; nothing below reads them).
            let context = LoadContext.reused(
                &spare, for: request, asset: asset, environment: environment, contents: items.takeContents(at: index),
                dependencies: dependencies, note: plugin.plans ? environment.notes.take(for: asset) : nil)
            if warns {  // claimed by content, not by name; its store name another file's
                do {
                    for warning in table.plannedWarnings(asset) { try context.warn(warning) }
                } catch {  // a strict batch: the asset fails before its plugin runs
                    finished.append(
                        FinishedAsset(
                            items[index], in: table, outcome: loading.outcome(of: .failure(error), for: items[index]), duration: .zero,
                            started: started, thread: thread))
                    index += 1
                    started = .now
                    continue
                }
            }
            if plugin.loadsAsynchronously {
                let once = OnceFlag()
                let item = items[index], soFar = finished, next = index + 1, began = started
                let queued = began - loading.queuedAt - waited
                plugin.loader.load(context) { [self, items] result in
                    guard once.claim() else { return }
                    let done = FinishedAsset(
                        item, planned: request, outcome: loading.outcome(of: result, for: item), duration: .now - began, started: began,
                        thread: thread,
                        context: context,
                        queued: queued, waited: waited)
                    proceed(items, from: next, finished: soFar + [done], waited: waited)
                }
                return
            }
            started = loading.load(items[index], context: context, started: started, thread: thread, waited: waited, into: &finished) {
                try plugin.loader.load($0)
            }
            spare = consume context
            index += 1
        }
        conclude(finished)
    }

    /// The outcomes of the item's declared dependencies, or why it must not run: a dependency
    /// failed or was cancelled (unless its plugin tolerates that).
    private func outcomes(ofDependenciesOf item: LoadItem) -> Result<[AssetRequest: AssetOutcome], AssetError> {
        guard item.hasDependencies else { return .success([:]) }
        var known = item.dependencyOutcomes?.outcomes(of: item.dependencies.lazy.map(\.request)) ?? [:]
        for (request, error) in item.dependencyFailures { known[request] = .failed(error) }
        guard !table.plugin(item.asset).loader.toleratesFailedDependencies else { return .success(known) }
        for (request, _) in item.dependencies {
            switch known[request] {
            case .loaded: continue
            case .failed(let error): return .failure(.dependencyFailed(path: table.requestedPath(item.asset), dependency: error))
            case .cancelled, nil:
                return .failure(.dependencyCancelled(path: table.requestedPath(item.asset), dependency: request.path))
            }
        }
        return .success(known)
    }

    /// Hands the outcomes to the batch while `isFinished` is still false, then finishes.
    private func conclude(_ finished: [FinishedAsset]) {
        willChangeValue(forKey: "isFinished")
        guard state.withLock({ $0.claimFinish() }) else { return }
        environment.sink.send(.finished(finished))
        _ = state.withLock { $0.markFinished() }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }

}

/// One asset a ``LoadOperation`` loads, as planning left it: what the load needs beyond what
/// planning found for it (its request, file and plugin, in the batch's ``PlannedTable``, read by
/// the asset's number).
struct LoadItem: Sendable {
    /// The asset's index in its batch.
    let asset: Int
    /// The whole file, when planning read it ahead (until its load takes it:
    /// ``LoadItems/takeContents(at:)``).
    var contents: AssetBytes?
    /// What it counts against the batch's memory budget (0 without one).
    var decodedBytes = 0
    init(asset: Int, contents: AssetBytes?) {
        self.asset = asset
        self.contents = contents
    }

    /// What the plugin declared; `nil` for most files, so that handing an item on copies no
    /// collections. A reference (copied before it is changed while shared), so that an item is
    /// 32 bytes, not 48: a batch holds an item per asset until its load starts (a baked pack of
    /// a million entries, a million items).
    private var declared: Declared?

    private final class Declared: @unchecked Sendable {  // changed only while uniquely referenced
        var dependencies: [(request: AssetRequest, asset: Int)] = []
        var failures: [AssetRequest: AssetError] = [:]
        let outcomes: DependencyOutcomes

        init(outcomes: DependencyOutcomes = DependencyOutcomes()) { self.outcomes = outcomes }

        /// A copy to change, sharing the outcomes (one item's, however many copies).
        func copy() -> Declared {
            let copy = Declared(outcomes: outcomes)
            (copy.dependencies, copy.failures) = (dependencies, failures)
            return copy
        }
    }

    /// ``declared``, made or copied so that this item alone holds it: what changing it needs.
    private mutating func declaredToChange() -> Declared {
        if declared == nil {
            declared = Declared()
        } else if !isKnownUniquelyReferenced(&declared!) {
            declared = declared!.copy()
        }
        return declared!
    }

    /// The assets the plugin's declared dependencies were merged into, in declared order (empty
    /// for most files). They belong to other operations, which this one depends on.
    var dependencies: [(request: AssetRequest, asset: Int)] {
        get { declared?.dependencies ?? [] }
        _modify {
            let declared = declaredToChange()
            yield &declared.dependencies
        }
    }

    /// Declared dependencies that failed while planning (kept only for tolerant plugins).
    var dependencyFailures: [AssetRequest: AssetError] {
        get { declared?.failures ?? [:] }
        _modify {
            let declared = declaredToChange()
            yield &declared.failures
        }
    }

    /// Whether the plugin declared any dependency (most files: no).
    var hasDependencies: Bool { declared != nil }

    /// Where the recorder puts the outcomes of ``dependencies`` as they finish, read when the
    /// item's load starts; `nil` for an item that declared none.
    var dependencyOutcomes: DependencyOutcomes? { declared?.outcomes }
}

extension LoadItem {
    /// The item that loads `resolved` as asset `asset`.
    init(asset: Int, resolved: ResolvedRequest) {
        self.init(asset: asset, contents: resolved.contents)
        decodedBytes = resolved.decodedBytes
    }
}
