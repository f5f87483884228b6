import PreloadConcurrency
import Synchronization

/// Which asset each key was merged into, while a batch plans: requests for the same asset (the
/// same file reached by any path, entry, plugin and options) share one, named by the entry that
/// claimed the key first.
///
/// It holds no key: only each asset's key hash (made once, at planning: ``PlannedTable/keyHash(_:)``)
/// and its number, and compares a new request's key against the asset's parts where planning
/// wrote them, in the batch's ``PlannedTable`` (``PlannedTable/sameKey(_:as:)``): 8 bytes per
/// place in an open-addressed array, about 12 per asset, instead of a dictionary entry holding
/// a copy of the file's device, inode, entry name and options (168 bytes per asset of a
/// 100,000-entry pack).
///
/// Split into shards by the key's hash, each behind its own lock, so that planning threads
/// merging their chunks do not queue for one lock.
final class MergeTable: Sendable {
    /// One shard's keys: open addressing with linear probing, at most three quarters full.
    /// Each place is one word: the key hash's bits 4 to 35 (the low bits chose the shard) above
    /// the asset's number plus one (0: an empty place). 8 bytes a place, and a table sized for
    /// what it will hold (any number of places, not a power of two: a place is chosen by
    /// multiplying, not masking), so that a batch holds about 12 bytes an asset while it plans,
    /// not 16 to 32.
    private struct Keys {
        var places: [UInt64] = []
        var count = 0

        /// The asset whose key hash is `hash` and whose key `matches`, or the place to put one.
        func find(_ hash: Int, matching: (Int) -> Bool) -> (asset: Int?, place: Int) {
            let short = Self.short(hash)
            var place = Self.home(of: short, among: places.count)
            while places[place] != 0 {
                let kept = places[place]
                if UInt32(truncatingIfNeeded: kept >> 32) == short && matching(Int(UInt32(truncatingIfNeeded: kept)) - 1) {
                    return (Int(UInt32(truncatingIfNeeded: kept)) - 1, place)
                }
                place += 1
                if place == places.count { place = 0 }
            }
            return (nil, place)
        }

        /// What a place keeps of key hash `hash`.
        @inline(__always)
        static func short(_ hash: Int) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 4) }

        /// The first place to look for a key whose place keeps `short`, of `count` places: its
        /// bits spread by an odd multiplier (hashes that differ only in their low bits, as
        /// consecutive numbers do, land apart), then scaled to `count`.
        @inline(__always)
        static func home(of short: UInt32, among count: Int) -> Int {
            Int((UInt64(short &* 0x9E37_79B1) &* UInt64(count)) >> 32)
        }

        /// What a place keeps of key hash `hash` for `asset`.
        @inline(__always)
        static func place(_ hash: Int, _ asset: Int) -> UInt64 {
            UInt64(short(hash)) << 32 | UInt64(UInt32(truncatingIfNeeded: asset + 1))
        }

        /// Room for `wanted` keys with the table at most three quarters full: when it grows,
        /// half as many places again as `wanted` (a shard's share of a batch varies a little
        /// around what was reserved for it), or twice its places.
        mutating func reserve(_ wanted: Int) {
            guard wanted * 4 > places.count * 3 else { return }
            let capacity = max(16, wanted + wanted / 2, places.count * 2)
            let old = places
            places = Array(repeating: 0, count: capacity)
            for kept in old where kept != 0 {
                var place = Self.home(of: UInt32(truncatingIfNeeded: kept >> 32), among: capacity)
                while places[place] != 0 {
                    place += 1
                    if place == capacity { place = 0 }
                }
                places[place] = kept
            }
        }
    }

    private final class Shard: Sendable {
        let keys = PreloadMutex(Keys())
    }

    private static let shardCount = 16
    private let shards: [Shard] = (0..<MergeTable.shardCount).map { _ in Shard() }

    private func shard(_ hash: Int) -> Shard { shards[hash & (Self.shardCount - 1)] }

    /// The asset of `entry`, whose key hashes to `hash`: an existing one whose key `matches`
    /// (called with that asset's number, under the shard's lock), or `entry`'s new one if none.
    func claim(_ hash: Int, for entry: Int, matching: (Int) -> Bool) -> Int {
        shard(hash).keys.withLock { keys in
            keys.reserve(keys.count + 1)
            let found = keys.find(hash, matching: matching)
            if let asset = found.asset { return asset }
            keys.places[found.place] = Keys.place(hash, entry)
            keys.count += 1
            return entry
        }
    }

    /// The asset a key hashing to `hash` and that `matches` was merged into, if any.
    func asset(of hash: Int, matching: (Int) -> Bool) -> Int? {
        shard(hash).keys.withLock { keys in keys.places.isEmpty ? nil : keys.find(hash, matching: matching).asset }
    }

    /// Makes room for about `count` keys.
    func reserveCapacity(_ count: Int) {
        for shard in shards { shard.keys.withLock { $0.reserve(count / Self.shardCount + 1) } }
    }

    /// The bytes the table holds for each key it holds (for the tests that keep it small).
    var bytesPerKey: Double {
        var (bytes, keys) = (0, 0)
        for shard in shards {
            shard.keys.withLock {
                bytes += $0.places.capacity * MemoryLayout<UInt64>.stride
                keys += $0.count
            }
        }
        return Double(bytes) / Double(max(keys, 1))
    }

    /// Forgets every key: merging is over once planning ends.
    func removeAll() {
        for shard in shards { shard.keys.withLock { $0 = Keys() } }
    }
}
