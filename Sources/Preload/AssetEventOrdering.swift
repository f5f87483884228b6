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
/// batch's state, behind its lock.
struct AssetEventOrdering {
    let order: AssetEventOrder
    /// Whether each entry's result has been handed to the hooks.
    private var delivered: [Bool] = []
    /// Finished entries not yet delivered, by index (`.dependencies` only).
    private var waiting: Set<Int> = []
    /// The first entry not yet delivered (`.request` only).
    private var nextInRequestOrder = 0
    /// Entries by the load they wait on, and the caller's entries by request name.
    private var entriesOfLoad: [Int: [Int]] = [:]
    private var entriesNamed: [String: [Int]] = [:]

    init(order: AssetEventOrder) {
        self.order = order
    }

    /// Takes note of an entry added to the batch.
    mutating func added(_ entry: BatchState.Entry) {
        let index = delivered.count
        delivered.append(false)
        guard case .dependencies = order else { return }
        if let load = entry.load { entriesOfLoad[load, default: []].append(index) }
        if !entry.isDependency { entriesNamed[entry.request.name, default: []].append(index) }
    }

    /// `entry` has finished: returns the entries that may now be delivered, in order.
    mutating func finished(_ entry: Int, in entries: [BatchState.Entry]) -> [Int] {
        switch order {
        case .completion:
            delivered[entry] = true
            return [entry]
        case .request:
            var ready: [Int] = []
            while nextInRequestOrder < entries.count, entries[nextInRequestOrder].outcome != nil {
                delivered[nextInRequestOrder] = true
                ready.append(nextInRequestOrder)
                nextInRequestOrder += 1
            }
            return ready
        case .dependencies(let after):
            waiting.insert(entry)
            var ready: [Int] = []
            var progressed = true
            while progressed {
                progressed = false
                for candidate in waiting.sorted() where prerequisitesDelivered(candidate, in: entries, after: after) {
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
    mutating func flush(_ entries: [BatchState.Entry]) -> [Int] {
        var rest: [Int] = []
        for index in entries.indices where !delivered[index] && entries[index].outcome != nil {
            delivered[index] = true
            rest.append(index)
        }
        waiting = []
        return rest
    }

    private func prerequisitesDelivered(_ entry: Int, in entries: [BatchState.Entry], after: [String: [String]]) -> Bool {
        for load in entries[entry].prerequisiteLoads {
            if entriesOfLoad[load, default: []].contains(where: { !delivered[$0] }) { return false }
        }
        guard !entries[entry].isDependency, let names = after[entries[entry].request.name] else { return true }
        for name in names where entriesNamed[name, default: []].contains(where: { $0 != entry && !delivered[$0] }) {
            return false
        }
        return true
    }
}
