import Foundation
import PreloadConcurrency

/// The operations planning made, kept by the planner alone (the batch's state holds none): for
/// the completion operation to depend on them all, and for a load with dependencies to depend on
/// the loads of the assets it needs. Planning threads add to it at once (one lock per batch of
/// loads); it is emptied when planning ends.
final class PlannedLoads: Sendable {
    private struct Loads {
        var operations: [LoadOperation] = []
        /// The assets each operation loads, by its position in `operations`.
        var covered: [Covered] = []
        /// Which operation loads an asset; made the first time a load with dependencies asks.
        var byAsset: [Int: Int]?
    }

    /// The assets one operation loads: a plain run's range (``LoadItems/run``), not a number
    /// per asset (a pack of a million entries, 8 MB until planning ends), or their list.
    private enum Covered {
        case run(Range<Int>)
        case list([Int])

        init(_ items: LoadItems) {
            self = items.isRun ? .run(items.run) : .list(items.map(\.asset))
        }

        /// The assets, in order.
        var assets: [Int] {
            switch self {
            case .run(let run): Array(run)
            case .list(let list): list
            }
        }
    }

    private let loads = PreloadMutex(Loads())

    /// Adds `operations`, each loading the items listed with it.
    func add(_ operations: [LoadOperation], covering items: [LoadItems]) {
        let assets = items.map(Covered.init)
        loads.withLock { loads in
            if loads.byAsset != nil {
                for (offset, covered) in assets.enumerated() {
                    for asset in covered.assets { loads.byAsset![asset] = loads.operations.count + offset }
                }
            }
            loads.operations += operations
            loads.covered += assets
        }
    }

    /// How many assets' numbers are kept, over every operation (for the tests).
    var listedAssets: Int {
        loads.withLock { loads in
            loads.covered.reduce(0) {
                if case .list(let list) = $1 { $0 + list.count } else { $0 }
            }
        }
    }

    /// The operations loading `assets` (planned earlier), each once.
    func operations(loading assets: [Int]) -> [LoadOperation] {
        loads.withLock { loads in
            if loads.byAsset == nil {
                var byAsset: [Int: Int] = [:]
                for (position, covered) in loads.covered.enumerated() {
                    for asset in covered.assets { byAsset[asset] = position }
                }
                loads.byAsset = byAsset
            }
            return Set(assets.compactMap { loads.byAsset![$0] }).sorted().map { loads.operations[$0] }
        }
    }

    /// Planning is over: every operation made, which this no longer keeps.
    func takeAll() -> [LoadOperation] {
        loads.withLock { loads in
            defer { loads = Loads() }
            return loads.operations
        }
    }
}
