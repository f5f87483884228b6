import PreloadConcurrency

/// What ``PlanningPlugin``s' plans handed their loads in one batch, by asset: written while
/// planning, taken (and so dropped) by the asset's load when it calls the plugin.
///
/// A per-batch table, not a field of every ``LoadItem``: most assets (a PNG's, a sound's) have
/// no note, and a field, even an empty one, made every item larger and copied through value
/// witnesses as it was handed from planning to its load (callgrind on 20,000 16x16 PNGs: 5,120
/// instructions of planning per asset without the field, 5,496 with it; docs/benchmarks.md,
/// issue 49). Only plugins that plan (``RegisteredPlugin/plans``) ever look here.
final class PlanningNotes: Sendable {
    private let notes = PreloadMutex<[Int: CarriedNote]>([:])

    init() {}

    /// Keeps `note` for `asset`'s load.
    func keep(_ note: CarriedNote, for asset: Int) {
        notes.withLock { $0[asset] = note }
    }

    /// `asset`'s note, removed from the table; `nil` if its plan gave none.
    func take(for asset: Int) -> CarriedNote? {
        notes.withLock { $0.removeValue(forKey: asset) }
    }
}
