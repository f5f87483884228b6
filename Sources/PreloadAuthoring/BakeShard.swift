/// One of N slices of a bake's slow step (`preload bake --shard I/N`): N machines (or
/// processes) each make their slice's entries into a shared bake cache, and a plain bake
/// afterwards assembles the pack from the cache. An entry's slice is a stable function of its
/// cache key (its first 64 bits, modulo N), not of its place in the list: every shard agrees on
/// the split whatever order it loaded the sources in, and identical textures fall in one slice.
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

    /// Whether the entry under cache key `key` (lowercase hex) is this slice's.
    public func contains(key: String) -> Bool {
        let slice = UInt64(key.prefix(16), radix: 16) ?? 0
        return Int(slice % UInt64(count)) == index - 1
    }
}
