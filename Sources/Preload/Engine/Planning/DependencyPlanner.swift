import Foundation

/// Plans the caller's requests whose plugins declare dependencies (an atlas and its pages, a
/// pack and its entries), one at a time, once the batch's other requests are planned.
///
/// For each, it follows the declared dependencies depth-first: each becomes an entry of the
/// batch, is resolved, and is merged into an existing asset (a page another request named is
/// loaded once) or a new one whose own dependencies are followed in turn. Meeting an asset whose
/// dependencies are still being followed is a cycle, refused with ``AssetError/Category/dependencyCycle``.
/// An asset whose dependency failed while planning fails too (with that cause), unless its
/// plugin tolerates failed dependencies.
///
/// Dependencies that depend on nothing share loads like any small file; an asset with
/// dependencies gets a load of its own that depends on theirs. Plugin code (resolving,
/// declaring) runs outside the batch's lock.
struct DependencyPlanner {
    let batch: BatchPlanner
    let resolver: RequestResolver
    let grouping: LoadGrouping
    private var recorder: any PlanningRecords { batch.recorder }

    /// Assets whose dependencies are being followed, with their paths: meeting one is a cycle.
    private var inProgress: [Int: String] = [:]
    /// Assets planned here that failed while planning, with the cause.
    private var failed: [Int: AssetError] = [:]
    /// Assets with no dependencies found here and not yet in a load.
    private var openLoad: [LoadGrouping.Item] = []
    private var openWork: Int64 = 0
    /// The caller's request whose dependencies are being followed.
    private var origin = 0
    /// The next dependency entry's number: planning numbers them itself (the caller's entries
    /// come first), so that it reads nothing back from the ledger.
    private var nextEntry: Int

    /// A planner whose first dependency entry is numbered `firstDependencyEntry` (the number of
    /// the caller's entries).
    init(batch: BatchPlanner, resolver: RequestResolver, grouping: LoadGrouping, firstDependencyEntry: Int) {
        self.batch = batch
        self.resolver = resolver
        self.grouping = grouping
        nextEntry = firstDependencyEntry
    }

    /// Plans the caller's request `entry`, resolved (its dependencies declared).
    mutating func plan(caller entry: Int, _ resolved: ResolvedRequest) {
        guard !batch.isCancelled else { return }  // left without an asset: reported cancelled
        origin = entry
        _ = place(entry, resolved, declared: true)
    }

    /// Queues the assets without dependencies that are still waiting for a load.
    mutating func sealOpenLoad() {
        guard !openLoad.isEmpty else { return }
        batch.install(grouping.loads(openLoad), from: resolver.table)
        openLoad = []
        openWork = 0
    }

    /// Adds an entry for the dependency `request`; returns its asset, or why it has none.
    private mutating func add(_ request: AssetRequest) -> Result<Int, AssetError> {
        let entry = nextEntry
        nextEntry += 1
        recorder.recordDependencyEntry(request, entry: entry, origin: origin)
        do {
            var allowance = ReadAheadAllowance(resolver.readAhead)
            return place(entry, try resolver.resolve(request, entry: entry, readingAhead: &allowance), declared: false)
        } catch {
            recorder.recordFailure(of: entry, error)
            return .failure(error)
        }
    }

    /// Makes `entry` wait for the asset of `resolved`, following a new asset's dependencies.
    private mutating func place(_ entry: Int, _ resolved: ResolvedRequest, declared: Bool) -> Result<Int, AssetError> {
        // Only this thread merges now (the other planning threads are done).
        let table = resolver.table
        if let existing = batch.mergeTable.asset(of: resolved.keyHash, matching: { table.sameKey(entry, as: $0) }),
            let through = inProgress[existing]
        {
            let cycle = AssetError(path: resolved.planned.path, category: .dependencyCycle, reason: "depends on itself through \(through)")
            recorder.recordFailure(of: entry, cycle)
            return .failure(cycle)
        }
        let asset = batch.mergeTable.claim(resolved.keyHash, for: entry) { table.sameKey(entry, as: $0) }
        recorder.recordPlacement(of: entry, on: asset, plugin: resolved.plugin.index)
        if asset == entry {
            var resolved = resolved
            if !declared { resolver.declare(&resolved) }
            follow(asset, resolved)
        }
        return .success(asset)
    }

    /// Follows the dependencies of the new asset `asset`, then plans it (or fails it).
    private mutating func follow(_ asset: Int, _ resolved: ResolvedRequest) {
        let request = resolved.planned.request
        let path = request.requestedPath  // what errors name: a stand-in's origin
        inProgress[asset] = path
        var item = LoadItem(asset: asset, resolved: resolved)
        if let note = resolved.note { batch.environment.notes.keep(note, for: asset) }
        let tolerant = resolved.plugin.loader.toleratesFailedDependencies
        var failure: AssetError?
        switch resolved.dependencies {
        case .failure(let error):
            failure = error
        case .success(let requests):
            for dependency in requests {
                attach(dependency, add(dependency.named(after: request)), to: &item, path: path, tolerant: tolerant, failure: &failure)
            }
        }
        if let listed = resolved.bulkDependencies {
            addListed(listed, of: resolved, into: &item, path: path, tolerant: tolerant, failure: &failure)
        }
        inProgress[asset] = nil
        if let failure {
            failed[asset] = failure
            recorder.recordPlanningFailure(of: asset, failure)
            return
        }
        recorder.recordPlan(of: asset, weight: resolved.weight, dependencies: item.dependencies.map(\.asset))
        guard item.hasDependencies else {
            let alone = resolved.plugin.loadsAsynchronously
            openLoad.append(LoadGrouping.Item(item: item, work: resolved.work, alone: alone))
            openWork += resolved.work
            if openLoad.count >= grouping.maxAssets || openWork >= grouping.targetWork || alone { sealOpenLoad() }
            return
        }
        sealOpenLoad()  // the loads of this asset's dependencies must exist before its own
        recorder.awaitOutcomes(of: item.dependencies, into: item.dependencyOutcomes!)
        batch.install([[item]], from: resolver.table, dependencies: batch.loads.operations(loading: item.dependencies.map(\.asset)))
    }
}

extension DependencyPlanner {
    /// Makes `item` wait for `dependency`'s asset (`added`), or notes why it cannot: a tolerant
    /// plugin sees each failure, any other fails with the first.
    fileprivate func attach(
        _ dependency: AssetRequest, _ added: Result<Int, AssetError>, to item: inout LoadItem, path: String, tolerant: Bool,
        failure: inout AssetError?
    ) {
        switch added {
        case .success(let dependencyAsset):
            item.dependencies.append((dependency, dependencyAsset))
            guard let dependencyFailure = failed[dependencyAsset] else { return }
            if tolerant {
                item.dependencyFailures[dependency] = dependencyFailure
            } else if failure == nil {
                failure = .dependencyFailed(path: path, dependency: dependencyFailure)
            }
        case .failure(let error) where tolerant:
            item.dependencyFailures[dependency] = error
        case .failure(let error) where failure == nil:
            failure =
                error.category == .dependencyCycle
                ? AssetError(path: path, category: .dependencyCycle, reason: error.reason)
                : .dependencyFailed(path: path, dependency: error)
        case .failure:
            return
        }
    }

    /// Adds the dependencies a ``BulkDependingPlugin`` listed for `resolved` (the bulk path):
    /// their entries numbered at once, in order, then each resolved from its row and placed as
    /// ``add(_:)`` places one; loading finds them as one ``BulkExpansion``.
    fileprivate mutating func addListed(
        _ listed: BulkEntries, of resolved: ResolvedRequest, into item: inout LoadItem, path: String, tolerant: Bool,
        failure: inout AssetError?
    ) {
        let request = resolved.planned.request
        let expansion: BulkExpansion
        guard let bulk = resolved.plugin.bulkDepending else { return }
        do throws(AssetError) {
            expansion = try BulkExpansion(
                listed, first: nextEntry, expander: resolved.plugin, bulk: bulk, facts: resolved.planned.file,
                options: request.options, registry: resolver.registry, areDependencies: true)
        } catch {
            if failure == nil { failure = error }
            return
        }
        // Entries are numbered in the ledger in order before any is placed (an entry's own
        // dependencies, an atlas's pages, come after them all).
        let first = nextEntry
        nextEntry += listed.count
        var requests: [AssetRequest] = []
        requests.reserveCapacity(listed.count)
        for index in 0..<listed.count {
            let dependency = expansion.request(at: index)
            recorder.recordDependencyEntry(dependency.named(after: request), entry: first + index, origin: origin)
            requests.append(dependency)
        }
        batch.environment.add(expansion)  // before any load of its entries is queued
        for index in 0..<listed.count {
            let entry = first + index
            let added: Result<Int, AssetError>
            do throws(AssetError) {
                let named = requests[index].named(after: request)
                let resolved = try resolver.resolve(dependency: named, entry: entry, listedAt: index, by: expansion, lister: bulk)
                added = place(entry, resolved, declared: false)
            } catch {
                recorder.recordFailure(of: entry, error)
                added = .failure(error)
            }
            attach(requests[index], added, to: &item, path: path, tolerant: tolerant, failure: &failure)
        }
    }
}

extension AssetRequest {
    /// This dependency named in the words of the request that declared it: a pack requested as
    /// `/home/me/game/level1.pak` named `level1` gives its entry `/home/me/game/level1.pak#hud.png`
    /// the name `level1#hud.png`; an atlas inside it, named `level1#hud/hud.json`, gives its page
    /// `/home/me/game/level1.pak#hud/hud.png` the same name the pack gives that entry,
    /// `level1#hud/hud.png`, so one asset has one name. A dependency beside the dependent's file
    /// or below its folder that its name does not stand for (the page `assets/ui.png` of an atlas
    /// `assets/ui.json` named `ui`) is named as a part of it, `ui#ui.png`. A name the plugin
    /// chose, or a path outside the dependent's folder, stays.
    func named(after dependent: AssetRequest) -> AssetRequest {
        // A stand-in's path, for its names, is its origin (what its dependencies are named by).
        let dependentPath = dependent.requestedPath
        guard name == path, dependent.name != dependentPath else { return self }
        // The part of the dependent's path its name stands for: all of it, or what is left once
        // the tail both share (from a `#` or `/` on) is taken off (`…/level1.pak` for `level1`).
        var (stem, named) = (Substring(dependentPath), Substring(dependent.name))
        while let last = stem.last, last == named.last {
            stem = stem.dropLast()
            named = named.dropLast()
        }
        let shared = dependentPath.dropFirst(stem.count)
        if let separator = shared.firstIndex(where: { $0 == "#" || $0 == "/" }) {
            let tail = dependentPath[separator...]
            stem = dependentPath.dropLast(tail.count)
            named = dependent.name.dropLast(tail.count)
        } else {
            (stem, named) = (Substring(dependentPath), Substring(dependent.name))
        }
        var renamed = self
        if !named.isEmpty, path.hasPrefix(stem), let next = path.dropFirst(stem.count).first, next == "#" || next == "/" {
            renamed.name = String(named) + path.dropFirst(stem.count)
        } else if path != dependentPath, let relative = path.relative(toFolderOf: dependentPath) {
            // Beside the dependent's file or below its folder (a descriptor atlas's page): named
            // as a part of it, like a pack's entry, in the caller's words (`ui#ui.png`).
            renamed.name = dependent.name + "#" + relative
        }
        return renamed
    }
}

extension String {
    /// This path relative to the folder holding `file` when it lies there or below (`ui.png`,
    /// `pages/ui.png` for `assets/ui.json`); `nil` elsewhere, or when either is relative and the
    /// other absolute.
    fileprivate func relative(toFolderOf file: String) -> String? {
        guard let slash = file.lastIndex(of: "/") else {
            return hasPrefix("/") || contains("#") ? nil : self
        }
        let folder = file[...slash]
        guard hasPrefix(folder), count > folder.count else { return nil }
        let rest = dropFirst(folder.count)
        guard !rest.hasPrefix("../"), rest != "..", !rest.contains("/../") else { return nil }
        return String(rest)
    }
}
