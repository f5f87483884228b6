/// One of N slices of a bake's slow step (`preload bake --shard I/N`): N machines (or
/// processes) each make their slice's entries into a shared bake cache, and a plain bake
/// afterwards assembles the pack from the cache. The split is a function of the set of entries
/// alone (each one's cache key and cost), not of the order they were loaded in: every shard
/// agrees on it, and identical textures are one entry. It balances the cost: a level's few
/// large pages and backgrounds hold most of its pixels, and a split by key alone would give one
/// shard several of them.
public struct BakeShard: Sendable, Hashable, CustomStringConvertible {
    /// Which slice, from 1.
    public let index: Int
    /// How many slices.
    public let count: Int

    /// Slice `index` (from 1) of `count`; `nil` unless `1 <= index <= count`.
    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// The slice `I/N` names (`2/4`); `nil` when it names none.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// `2/4`.
    public var description: String { "\(index)/\(count)" }

    /// The keys of `entries` (each a cache key, lowercase hex, once, and its cost: a texture's
    /// pixels) that are this slice's. Largest cost first (the key breaking ties), each entry goes
    /// to the slice with the least cost so far (the first of those on a tie): the longest
    /// processing time rule, so that no slice ends long after the others.
    public func keys(of entries: [(key: String, cost: Int)]) -> Set<String> {
        var totals = [Int](repeating: 0, count: count)
        var mine = Set<String>()
        for entry in entries.sorted(by: { $0.cost != $1.cost ? $0.cost > $1.cost : $0.key < $1.key }) {
            let slice = totals.indices.min { totals[$0] != totals[$1] ? totals[$0] < totals[$1] : $0 < $1 }!
            totals[slice] += max(entry.cost, 1)
            if slice == index - 1 { mine.insert(entry.key) }
        }
        return mine
    }
}
