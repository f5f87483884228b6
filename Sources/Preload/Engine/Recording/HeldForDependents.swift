/// What the assets of a batch depend on (an atlas's pages), kept until the dependents have read
/// it, and the walked files folded into their dependents. Lives in the batch's state, behind its
/// lock.
///
/// A dependent reads its dependencies from the batch's records when its load starts. When the
/// engine takes over an asset with ``AssetHandOff/releasesCPUCopies``, the store gets the
/// ``HandedOverAsset`` stand-in at once, but the batch's record keeps the asset until no asset
/// that depends on it is still to load (and planning, which may still find one, is over): only
/// then does the stand-in replace it there, so a page handed over early is still there for its
/// atlas.
///
/// A file a folder walk found that a planned asset of the batch depends on (the page `ui.png`
/// beside the atlas `ui.json`) is that asset's part, not a result of its own: it is **folded**
/// into it, so the report lists it once, under its dependent, and the hand-off and the hooks see
/// it only as a dependency. A file the caller named stays the caller's result. Since an atlas is
/// planned after the files beside it, which may have loaded already, a batch that walked folders
/// holds its loaded results back until planning is over.
struct HeldForDependents {
    /// Whether the caller's entries came from walking folders, except those in ``named``.
    private(set) var walked = false
    /// The caller's entries named rather than found in a folder (when ``walked``).
    private var named: Set<Int> = []
    /// How many of each asset's dependents have not finished; an asset is a key once planning
    /// gives it a dependent.
    private var pending: [Int: Int] = [:]
    /// Entries held back while planning, in the order they came.
    private var held: [Int] = []
    /// Stand-ins for released assets, waiting for the asset's dependents to read it.
    private var standIns: [Int: HandedOverAsset] = [:]

    /// The caller's entries came from walking folders; `named` are those the caller named.
    mutating func walkedFolders(named: [Int]) {
        walked = true
        self.named = Set(named)
    }

    /// The asset `asset` depends on `dependencies`.
    mutating func planned(_ asset: Int, dependencies: [Int]) {
        for dependency in Set(dependencies) { pending[dependency, default: 0] += 1 }
    }

    /// Holds `entry` back if it is to wait for planning to end (see ``walked``); `false` if not.
    mutating func holds(_ entry: Int, planning: Bool) -> Bool {
        guard walked, planning else { return false }
        held.append(entry)
        return true
    }

    /// Planning is over: the entries held back, in order, and the stand-ins no dependent waits
    /// for any more.
    mutating func planningEnded() -> (entries: [Int], standIns: [(asset: Int, HandedOverAsset)]) {
        defer { held = [] }
        return (held, takeStandIns(all: false))
    }

    /// `standIn` replaces `asset`, released by the engine: `true` if it may replace it in the
    /// batch's record now; else it is kept until the asset's dependents have read the asset.
    mutating func replaces(_ asset: Int, with standIn: HandedOverAsset, planning: Bool) -> Bool {
        guard planning || pending[asset, default: 0] > 0 else { return true }
        standIns[asset] = standIn
        return false
    }

    /// An asset that depends on `dependencies` has finished: returns the stand-ins that may now
    /// replace their assets.
    mutating func finished(dependencies: [Int], planning: Bool) -> [(asset: Int, HandedOverAsset)] {
        guard !dependencies.isEmpty, !pending.isEmpty else { return [] }
        for dependency in Set(dependencies) { pending[dependency, default: 1] -= 1 }
        return planning ? [] : takeStandIns(all: false)
    }

    /// The batch is ending: every stand-in still kept (the dependents were cancelled).
    mutating func flush() -> [(asset: Int, HandedOverAsset)] {
        takeStandIns(all: true)
    }

    private mutating func takeStandIns(all: Bool) -> [(asset: Int, HandedOverAsset)] {
        guard !standIns.isEmpty else { return [] }
        let free = standIns.filter { all || pending[$0.key, default: 0] == 0 }
        for asset in free.keys { standIns[asset] = nil }
        return free.map { ($0.key, $0.value) }
    }

    /// Whether planning gave `asset` a dependent (it is another asset's dependency).
    func isDependency(_ asset: Int) -> Bool { pending[asset] != nil }

    /// Whether the caller's entry `entry` (of `asset`) is folded into an asset that depends on
    /// it: a folder found it, and planning gave it a dependent.
    func folds(_ entry: Int, asset: Int, callers: Int) -> Bool {
        walked && entry < callers && asset >= 0 && pending[asset] != nil && !named.contains(entry)
    }

    /// The caller's entries folded into their dependents (see ``folds(_:asset:callers:)``).
    func folded(callers: Int, assetOfEntry: [Int32]) -> Set<Int> {
        guard walked, !pending.isEmpty else { return [] }
        return Set((0..<callers).filter { folds($0, asset: Int(assetOfEntry[$0]), callers: callers) })
    }
}
