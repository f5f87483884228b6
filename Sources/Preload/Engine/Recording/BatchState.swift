import Synchronization

/// The ledger of a batch, behind the batch's one lock: an entry per request, a record per
/// distinct asset (``AssetRecords``, by asset number), the order results are delivered in (``AssetEventOrdering``), what assets
/// depend on (``HeldForDependents``), and the batch's outlets (``BatchOutlets``), which own
/// their state and live under the same lock. (Which asset a request merges into is
/// ``MergeTable``'s, outside this lock; the loads are the planner's, ``PlannedLoads``.)
///
/// Entries are numbered with the caller's requests first, in the order given, then the
/// dependencies plugins declare, as planning finds them.
struct BatchState {
    enum Phase { case planning, running, finished }

    var phase = Phase.planning
    /// This batch among the process's batches (from 1), carried by its results so that a report
    /// knows its own (``PreloadReport/timings(of:)``).
    let number: UInt64
    private static let numbers = Atomic<UInt64>(1)
    var cancelRequested = false
    /// The caller's requests: entries `0..<callers.count`.
    private(set) var callers: CallerRequests
    /// Files in the caller's folders that no plugin claims.
    private(set) var skipped: [String] = []
    /// The caller's folder requests, replaced by their files in ``callers``.
    private(set) var folders: [AssetRequest] = []
    /// Why the skipped paths that are not simply unclaimed were skipped.
    private(set) var skipReasons: [String: String] = [:]
    /// The requests plugins declared: entries from `callers.count` on.
    private(set) var dependencyRequests: [AssetRequest] = []
    /// The asset each entry waits for (``asset(ofEntry:)``); -1 while it has none (not planned
    /// yet, or failed planning).
    private(set) var assetOfEntry: [Int32]
    /// Indexed by asset number: one per entry, as made where the entry made no asset of its own.
    private(set) var records: AssetRecords
    /// Entries beyond the first waiting for an asset (merged requests).
    var moreWaiters: [Int: [Int]] = [:]
    /// Why entries without an asset failed (a missing file, no plugin, a dependency cycle).
    var failures: [Int: AssetError] = [:]
    /// Where loads waiting for an asset (a dependency) get its outcome, by the asset's number.
    private var outcomeWaiters: [Int: [(outcomes: DependencyOutcomes, request: AssetRequest)]] = [:]
    /// The batch's outlets, in their order.
    let outlets: BatchOutlets
    var planning: Duration = .zero
    var diagnostics = BatchDiagnostics()
    var report: PreloadReport?
    /// What outlets could not do (``BatchState/tellOutlets(_:_:)``), for the report.
    var outletFailures: [OutletFailure] = []
    /// When per-asset hooks may run.
    var ordering: AssetEventOrdering
    /// What assets depend on, kept for them; the walked files folded into them.
    var held = HeldForDependents()
    /// Whether the batch lets go of its assets once recorded, and those it is still to
    /// (``PreloadOptions/reportKeepsAssets``).
    var release = ReportRelease()
    /// The caller's request each run of dependency entries belongs to, by the run's first
    /// entry (one caller's dependency entries are contiguous: planning follows one caller's
    /// dependencies at a time).
    private var dependencyOrigins: [Int: Int] = [:]
    private var lastOrigin = -1

    init(callers: CallerRequests, outlets: BatchOutlets, plugins: [String], eventOrder: AssetEventOrder = .completion, number: UInt64? = nil) {
        self.callers = callers
        self.outlets = outlets
        self.number = number ?? Self.numbers.wrappingAdd(1, ordering: .relaxed).oldValue
        assetOfEntry = Array(repeating: -1, count: callers.count)
        records = AssetRecords(count: callers.count, plugins: plugins)
        ordering = AssetEventOrdering(order: eventOrder, callers: callers)
    }

    /// Makes `expanded` the caller's requests (folders replaced by their files), before any is
    /// planned; `named` are the positions of those the caller named rather than a folder held.
    mutating func replaceCallers(_ expanded: CallerRequests, skipped: [String], skipReasons: [String: String], named: [Int]) {
        let folders = callers.filter(\.isFolder)
        self = BatchState(replacing: self, callers: expanded)
        self.skipped = skipped
        self.skipReasons = skipReasons
        self.folders = folders
        if named.count < expanded.count { held.walkedFolders(named: named) }
    }

    private init(replacing old: BatchState, callers: CallerRequests) {
        self.init(
            callers: callers, outlets: old.outlets, plugins: old.records.pluginNames, eventOrder: old.ordering.order, number: old.number)
        cancelRequested = old.cancelRequested
        release = old.release
    }

    /// The request of `entry`: the caller's, or one a plugin declared.
    func request(ofEntry entry: Int) -> AssetRequest {
        entry < callers.count ? callers[entry] : dependencyRequests[entry - callers.count]
    }

    /// The asset `entry` waits for; -1 while it has none.
    func asset(ofEntry entry: Int) -> Int { Int(assetOfEntry[entry]) }

    /// How `entry` ended, if it has; `nil` while it is still to load (or was never reached).
    func outcome(ofEntry entry: Int) -> AssetOutcome? {
        if !failures.isEmpty, let failure = failures[entry] { return .failed(failure) }
        let asset = asset(ofEntry: entry)
        return asset < 0 ? nil : records.outcome(of: asset)
    }

    /// The entries waiting for `asset`, the one it was planned for first.
    func waiters(of asset: Int) -> Waiters {
        Waiters(first: asset, more: moreWaiters.isEmpty ? nil : moreWaiters[asset])
    }

    /// The entries waiting for one asset: almost always one, so no array is made for it.
    struct Waiters: Sequence, IteratorProtocol {
        let first: Int
        let more: [Int]?
        private var position = -1

        init(first: Int, more: [Int]?) {
            self.first = first
            self.more = more
        }

        mutating func next() -> Int? {
            defer { position += 1 }
            if position < 0 { return first }
            guard let more, position < more.count else { return nil }
            return more[position]
        }
    }

    /// Whether the caller's `entry` is folded into an asset that depends on it (a walked atlas
    /// page: see ``HeldForDependents``).
    func isFolded(_ entry: Int) -> Bool {
        held.folds(entry, asset: asset(ofEntry: entry), callers: callers.count)
    }

    /// The result of `entry` for reports and hooks; no outcome means cancelled.
    func result(ofEntry entry: Int) -> AssetResult {
        AssetResults.Recorded.result(
            ofEntry: entry, batch: number, callers: callers, dependencyRequests: dependencyRequests, assetOfEntry: assetOfEntry,
            failures: failures, records: records)
    }

    // MARK: Planning

    /// The dependency entry `entry` (the next one: planning numbers them itself, reading nothing
    /// back) for `request`, brought by the caller's request `origin`.
    mutating func addDependencyEntry(_ request: AssetRequest, entry: Int, origin: Int) {
        precondition(entry == assetOfEntry.count, "planning numbered dependency entry \(entry), the ledger has \(assetOfEntry.count)")
        dependencyRequests.append(request)
        assetOfEntry.append(-1)
        records.append()
        ordering.added(dependency: entry, origin: origin)
        if origin != lastOrigin {
            dependencyOrigins[entry] = origin
            lastOrigin = origin
        }
    }

    /// `entry` could not be planned. Returns it, to be announced.
    mutating func fail(_ entry: Int, _ error: AssetError) -> Int {
        failures[entry] = error
        return entry
    }

    /// Makes `entry` wait for `asset`, which ``MergeTable/claim(_:for:matching:)`` gave its key: its own new
    /// one (`asset == entry`, weighing nothing until ``plan(_:weight:dependencies:)``), or one
    /// another entry made. Returns whether the entry's outcome is already known (to be announced).
    mutating func place(_ entry: Int, on asset: Int, plugin: Int) -> Bool {
        assetOfEntry[entry] = Int32(truncatingIfNeeded: asset)
        if asset == entry {
            records.setPlugin(plugin, of: asset)  // the record is still as made, weighing nothing
            return false
        }
        moreWaiters[asset, default: []].append(entry)
        ordering.assigned(entry, to: asset, dependencies: records.dependencies(of: asset))
        return records.status(of: asset) != .open
    }

    /// The asset is planned: it weighs `weight` and depends on `dependencies`.
    mutating func plan(_ asset: Int, weight: Int64, dependencies: [Int] = []) {
        records.plan(asset, weight: weight, dependencies: dependencies)
        if !dependencies.isEmpty { held.planned(asset, dependencies: dependencies) }
        guard case .dependencies = ordering.order else { return }
        for entry in waiters(of: asset) { ordering.assigned(entry, to: asset, dependencies: dependencies) }
    }

    /// The asset failed while planning and will not load. Returns its entries, to be announced.
    mutating func failPlanning(_ asset: Int, _ error: AssetError) -> Waiters {
        records.fail(asset, error)
        tellLoadsWaiting(for: asset)
        return waiters(of: asset)
    }

    /// A load is to receive the outcomes of `dependencies` in `outcomes`: at once for those
    /// already finished, the others as they finish (``record(_:)``).
    mutating func awaitOutcomes(of dependencies: [(request: AssetRequest, asset: Int)], into outcomes: DependencyOutcomes) {
        for (request, asset) in dependencies {
            if let outcome = records.outcome(of: asset) {
                outcomes.set(outcome, for: request)
            } else {
                outcomeWaiters[asset, default: []].append((outcomes, request))
            }
        }
    }

    // MARK: Loading

    /// Records how the asset at `index` of a load's `finished` ended (read in place:
    /// ``AssetRecords/record(_:at:)``); returns the entries waiting for it.
    mutating func record(_ finished: [FinishedAsset], at index: Int) -> Waiters {
        records.record(finished, at: index)
        tellLoadsWaiting(for: finished[index].asset)
        return waiters(of: finished[index].asset)
    }

    /// Hands the outcome of `asset` to the loads waiting for it (``awaitOutcomes(of:into:)``).
    private mutating func tellLoadsWaiting(for asset: Int) {
        guard !outcomeWaiters.isEmpty, let outcome = records.outcome(of: asset), let loads = outcomeWaiters.removeValue(forKey: asset) else {
            return
        }
        for load in loads { load.outcomes.set(outcome, for: load.request) }
    }

    /// `asset` has finished, so it has read its dependencies: the stand-ins of those the engine
    /// released take their places now, unless planning may still give them another dependent
    /// (``HeldForDependents``).
    mutating func dependentFinished(_ asset: Int) {
        guard !records.dependencies.isEmpty else { return }  // nothing depends on anything
        for (dependency, standIn) in held.finished(dependencies: records.dependencies(of: asset), planning: phase == .planning) {
            replace(dependency, with: standIn)
        }
    }

    /// The engine released `asset`: `standIn` takes its place (if it is still loaded here).
    mutating func replace(_ asset: Int, with standIn: any Asset) {
        records.replace(asset, with: standIn)
    }

    // MARK: Ending

    /// Ends the batch: moves every entry's and asset's records out (for the report, which makes
    /// its results from them when they are read), leaving nothing per asset behind: the ledger
    /// lets go of each array it hands over, so the report holds the only reference (a move, not
    /// a copy).
    mutating func close() -> AssetResults.Recorded {
        phase = .finished
        outcomeWaiters = [:]
        let folded = held.folded(callers: callers.count, assetOfEntry: assetOfEntry)
        let order =
            dependencyRequests.isEmpty
            ? nil
            : ReportAssembly.reportOrder(callers: callers.count, entries: assetOfEntry.count, origins: dependencyOrigins, leaving: folded)
        let recorded = AssetResults.Recorded(
            batch: number, callers: callers, dependencyRequests: dependencyRequests, assetOfEntry: assetOfEntry, failures: failures,
            records: records, order: order, folded: folded)
        (dependencyRequests, assetOfEntry, records, failures, moreWaiters) = ([], [], AssetRecords(count: 0, plugins: records.pluginNames), [:], [:])
        return recorded
    }
}

extension BatchState {
    /// Hands one event to every outlet, in the list's order, under the batch's lock. An outlet
    /// that throws is reported (``OutletFailure``, kept for the report), and the others still
    /// hear the event.
    mutating func tellOutlets(_ event: StaticString, _ call: (any BatchOutlet, borrowing BatchState) throws -> Void) {
        var failures: [OutletFailure] = []
        for outlet in outlets.list {
            do {
                try call(outlet, self)
            } catch {
                failures.append(OutletFailure(outlet: "\(type(of: outlet))", event: "\(event)", cause: error))
            }
        }
        if !failures.isEmpty { outletFailures += failures }
    }

    /// Tells every outlet that planning made each of `assets`, weighing its weight: each asset
    /// in turn, every outlet in the list's order, as ``tellOutlets(_:_:)`` tells one event. The
    /// ledger is handed on from one reading function for them all: from this mutating one,
    /// each asset's call copied all of it (880 bytes, ~110 instructions; callgrind, issue 50).
    /// An outlet that throws for an asset is reported for it, and still hears the others.
    mutating func tellOutlets(planned assets: [(asset: Int, weight: Int64)]) {
        guard !assets.isEmpty else { return }
        let failures = outletFailures(planning: assets)
        if !failures.isEmpty { outletFailures += failures }
    }

    /// ``tellOutlets(planned:)``'s calls, reading the ledger where it is.
    @inline(never)
    private func outletFailures(planning assets: [(asset: Int, weight: Int64)]) -> [OutletFailure] {
        var failures: [OutletFailure] = []
        for (asset, weight) in assets {
            for outlet in outlets.list {
                do {
                    try outlet.planned(asset: asset, weight: weight, ledger: self)
                } catch {
                    failures.append(OutletFailure(outlet: "\(type(of: outlet))", event: "planned", cause: error))
                }
            }
        }
        return failures
    }
}
