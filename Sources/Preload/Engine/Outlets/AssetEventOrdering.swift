/// The order in which a batch hands per-asset results to ``PreloadHooks/onAssetLoaded`` and
/// ``PreloadHooks/onAssetFailed``. Loads run in parallel and finish in any order whatever this
/// says; only the hooks wait, so that game code processing results can rely on an order.
public enum AssetEventOrder: Sendable, Hashable {
    /// As loads finish (the default): the soonest, in no particular order.
    case completion
    /// In the order of the batch's requests (each request followed by the dependencies plugins
    /// declared for it), whatever order they finish in.
    case request
    /// Each asset after its prerequisites: the dependencies plugins declare (an atlas after its
    /// pages) and, by request name, the ones given here (`["reports": ["users"]]` processes
    /// "reports" after "users"). Assets with nothing to wait for go as soon as they finish. A
    /// named prerequisite that is not in the batch is ignored; a cycle is delivered at the end,
    /// in request order.
    case dependencies(after: [String: [String]] = [:])
}

/// Holds back finished entries until ``AssetEventOrder`` lets them through. Lives in the
/// batch's state, behind its lock, and keeps its own record of which entries are done, so it
/// needs nothing else from the state. With ``AssetEventOrder/completion`` it records nothing.
///
/// Entries are numbered as the batch numbers them: the caller's requests first, in order, then
/// dependencies as planning finds them. Request order is each caller's request followed by the
/// dependencies planning declared for it.
struct AssetEventOrdering {
    let order: AssetEventOrder
    /// Whether each entry has finished, and whether its result has been handed to the hooks.
    private var done: [Bool] = []
    private var delivered: [Bool] = []
    /// The dependency entries each caller's request brought, in the order they were found.
    private var dependencyEntries: [Int: [Int]] = [:]
    /// `.request`: the next caller's request to deliver, and how many of its dependencies went.
    private var nextCaller = 0
    private var nextDependency = -1
    /// `.dependencies`: finished entries not yet delivered, the assets each entry waits for,
    /// the entries of each asset, and the caller's entries by request name.
    private var waiting: Set<Int> = []
    private var prerequisites: [Int: [Int]] = [:]
    private var entriesOfAsset: [Int: [Int]] = [:]
    private var entriesNamed: [String: [Int]] = [:]
    private var callerNames: [String] = []
    private let callerCount: Int

    init(order: AssetEventOrder, callers: CallerRequests) {
        self.order = order
        callerCount = callers.count
        guard order != .completion else { return }
        done = Array(repeating: false, count: callers.count)
        delivered = done
        if case .dependencies = order {
            callerNames = callers.indices.map(callers.name(of:))
            for (index, name) in callerNames.enumerated() { entriesNamed[name, default: []].append(index) }
        }
    }

    /// A dependency entry `entry`, brought by the caller's request `origin`.
    mutating func added(dependency entry: Int, origin: Int) {
        guard order != .completion else { return }
        done.append(false)
        delivered.append(false)
        dependencyEntries[origin, default: []].append(entry)
    }

    /// `entry` waits for `asset`, which depends on the assets `dependencies`.
    mutating func assigned(_ entry: Int, to asset: Int, dependencies: [Int]) {
        guard case .dependencies = order else { return }
        entriesOfAsset[asset, default: []].append(entry)
        if !dependencies.isEmpty { prerequisites[entry] = dependencies }
    }

    /// `entry` has finished: returns the entries that may now be delivered, in order.
    mutating func finished(_ entry: Int) -> [Int] {
        switch order {
        case .completion:
            return [entry]
        case .request:
            done[entry] = true
            var ready: [Int] = []
            while let next = nextInRequestOrder(), done[next] {
                delivered[next] = true
                ready.append(next)
                nextDependency += 1
                if nextDependency >= (dependencyEntries[nextCaller]?.count ?? 0) {
                    nextCaller += 1
                    nextDependency = -1
                }
            }
            return ready
        case .dependencies(let after):
            done[entry] = true
            waiting.insert(entry)
            var ready: [Int] = []
            var progressed = true
            while progressed {
                progressed = false
                for candidate in waiting.sorted() where prerequisitesDelivered(candidate, after: after) {
                    waiting.remove(candidate)
                    delivered[candidate] = true
                    ready.append(candidate)
                    progressed = true
                }
            }
            return ready
        }
    }

    /// At the end of the batch: every finished entry still held back (behind a cancelled
    /// prerequisite, or in a cycle), in request order.
    mutating func flush() -> [Int] {
        guard order != .completion else { return [] }
        var rest: [Int] = []
        for caller in 0..<callerCount {
            for entry in [caller] + (dependencyEntries[caller] ?? []) where done[entry] && !delivered[entry] {
                delivered[entry] = true
                rest.append(entry)
            }
        }
        waiting = []
        return rest
    }

    /// The entry whose turn it is in request order, if any is left.
    private func nextInRequestOrder() -> Int? {
        guard nextCaller < callerCount else { return nil }
        return nextDependency < 0 ? nextCaller : dependencyEntries[nextCaller]![nextDependency]
    }

    private func prerequisitesDelivered(_ entry: Int, after: [String: [String]]) -> Bool {
        for asset in prerequisites[entry] ?? [] {
            if entriesOfAsset[asset, default: []].contains(where: { !delivered[$0] }) { return false }
        }
        guard entry < callerCount, let names = after[callerNames[entry]] else { return true }
        for name in names where entriesNamed[name, default: []].contains(where: { $0 != entry && !delivered[$0] }) {
            return false
        }
        return true
    }
}
