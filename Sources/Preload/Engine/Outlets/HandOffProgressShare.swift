/// The hand-off's share of a batch's progress, for a batch that completes after its hand-off
/// (``PreloadOptions/completesAfterHandOff``): the weight of what is handed over (or settled
/// otherwise: failed, cancelled, withdrawn) against the weight of every asset of the batch,
/// dependencies included, so that it ends where the batch's `Progress` ends
/// (``PreloadProgress/totalUnitCount``). Part of the ``HandOffOutlet``, under the batch's lock.
///
/// An asset that is not handed over on its own (an atlas's page, a pack's entry, a map's tileset
/// image, a walked file folded into its atlas) is carried by the first asset handed over or
/// settled that depends on it, however deep: its weight counts once, with that asset's. What an
/// item carries is its ``AssetHandOff/Item/progressWeight``, so an engine that adds up the
/// weights of what it has on screen holds the same count as the bar.
struct HandOffProgressShare {
    /// Whether dependencies are handed over on their own (``AssetHandOff/includesDependencies``).
    let includesDependencies: Bool
    /// The weight settled so far, and in all (known once planning ends).
    private(set) var done: Int64 = 0
    private(set) var total: Int64 = 0
    /// Assets whose weight is counted: by the item that carries it, or settled.
    private var claimed: Set<Int> = []
    /// What each queued asset carries, until it is handed over.
    private var queued: [Int: Int64] = [:]

    init(includesDependencies: Bool) {
        self.includesDependencies = includesDependencies
    }

    /// Planning is over: the total is every asset's weight.
    mutating func planningEnded(ledger: borrowing BatchState) {
        total = 0
        for index in ledger.records.slots.indices { total += ledger.records.slots[index].weight }
    }

    /// The asset is queued on the hand-off: what it carries (its weight and that of the
    /// dependencies it brings that no other asset has), counted when it is handed over.
    mutating func queue(_ asset: Int, ledger: borrowing BatchState) -> Int64 {
        let weight = claim(asset, ledger: ledger)
        queued[asset] = weight
        return weight
    }

    /// The queued asset was handed over (or withdrawn): what it carries is done.
    mutating func handedOver(_ asset: Int) {
        done += queued.removeValue(forKey: asset) ?? 0
    }

    /// The asset will not be handed over (it failed or was cancelled): what it carries is done
    /// now. An asset carried by another (a dependency, unless they are handed over too) waits for it.
    mutating func settled(_ asset: Int, callers: Int, ledger: borrowing BatchState) {
        guard includesDependencies || asset < callers else { return }
        done += claim(asset, ledger: ledger)
    }

    /// Claims `asset` and, depth first, every dependency under it that is not yet claimed and not
    /// handed over on its own; returns their weight.
    private mutating func claim(_ asset: Int, ledger: borrowing BatchState) -> Int64 {
        guard asset >= 0, asset < ledger.records.count, claimed.insert(asset).inserted else { return 0 }
        var weight = ledger.records.weight(of: asset)
        guard !includesDependencies else { return weight }
        var stack = ledger.records.dependencies(of: asset)
        let callers = ledger.callers.count
        while let next = stack.popLast() {
            // A caller's asset is handed over (or settled) on its own, unless folded into this one.
            guard next >= 0, next < ledger.records.count, next >= callers || ledger.isFolded(next) else { continue }
            guard claimed.insert(next).inserted else { continue }
            weight += ledger.records.weight(of: next)
            stack += ledger.records.dependencies(of: next)
        }
        return weight
    }
}
