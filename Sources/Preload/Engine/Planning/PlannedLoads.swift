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
        var covered: [[Int]] = []
        /// Which operation loads an asset; made the first time a load with dependencies asks.
        var byAsset: [Int: Int]?
    }

    private let loads = PreloadMutex(Loads())

    /// Adds `operations`, each loading the assets listed with it.
    func add(_ operations: [LoadOperation], covering assets: [[Int]]) {
        loads.withLock { loads in
            if loads.byAsset != nil {
                for (offset, covered) in assets.enumerated() {
                    for asset in covered { loads.byAsset![asset] = loads.operations.count + offset }
                }
            }
            loads.operations += operations
            loads.covered += assets
        }
    }

    /// The operations loading `assets` (planned earlier), each once.
    func operations(loading assets: [Int]) -> [LoadOperation] {
        loads.withLock { loads in
            if loads.byAsset == nil {
                var byAsset: [Int: Int] = [:]
                for (position, covered) in loads.covered.enumerated() {
                    for asset in covered { byAsset[asset] = position }
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
