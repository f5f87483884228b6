import PreloadConcurrency
import Synchronization

/// Which asset each key was merged into, while a batch plans: requests for the same asset (the
/// same file reached by any path, entry, plugin and options) share one, named by the entry that
/// claimed the key first.
///
/// It holds no key: only each asset's key hash (made once, at planning: ``PlannedTable/keyHash(_:)``)
/// and its number, and compares a new request's key against the asset's parts where planning
/// wrote them, in the batch's ``PlannedTable`` (``PlannedTable/sameKey(_:as:)``): 8 bytes per
/// asset in open-addressed arrays instead of a dictionary entry holding a copy of the file's
/// device, inode, entry name and options (168 bytes per asset of a 100,000-entry pack).
///
/// Split into shards by the key's hash, each behind its own lock, so that planning threads
/// merging their chunks do not queue for one lock.
final class MergeTable: Sendable {
    /// One shard's keys: open addressing with linear probing, at most half full.
    private struct Keys {
        /// Each place's key hash, bits 4 to 35 (the low bits chose the shard): 4 bytes a place,
        /// not 8, and enough to compare few keys that differ.
        var hashes: [UInt32] = []
        /// The asset of each place; -1 for an empty place.
        var assets: [Int32] = []
        var count = 0

        /// The asset whose key hash is `hash` and whose key `matches`, or the place to put one.
        func find(_ hash: Int, matching: (Int) -> Bool) -> (asset: Int?, place: Int) {
            let mask = assets.count - 1
            let short = Self.short(hash)
            var place = Int(short) & mask
            while assets[place] >= 0 {
                if hashes[place] == short && matching(Int(assets[place])) { return (Int(assets[place]), place) }
                place = (place + 1) & mask
            }
            return (nil, place)
        }

        /// What a place keeps of key hash `hash`.
        @inline(__always)
        static func short(_ hash: Int) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 4) }

        /// Room for `wanted` keys with the table at most half full.
        mutating func reserve(_ wanted: Int) {
            guard wanted * 2 > assets.count else { return }
            var capacity = max(assets.count, 16)
            while capacity < wanted * 2 { capacity *= 2 }
            let (oldHashes, oldAssets) = (hashes, assets)
            hashes = Array(repeating: 0, count: capacity)
            assets = Array(repeating: -1, count: capacity)
            let mask = capacity - 1
            for index in oldAssets.indices where oldAssets[index] >= 0 {
                var place = Int(oldHashes[index]) & mask
                while assets[place] >= 0 { place = (place + 1) & mask }
                (hashes[place], assets[place]) = (oldHashes[index], oldAssets[index])
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
            (keys.hashes[found.place], keys.assets[found.place]) = (Keys.short(hash), Int32(truncatingIfNeeded: entry))
            keys.count += 1
            return entry
        }
    }

    /// The asset a key hashing to `hash` and that `matches` was merged into, if any.
    func asset(of hash: Int, matching: (Int) -> Bool) -> Int? {
        shard(hash).keys.withLock { keys in keys.assets.isEmpty ? nil : keys.find(hash, matching: matching).asset }
    }

    /// Makes room for about `count` keys.
    func reserveCapacity(_ count: Int) {
        for shard in shards { shard.keys.withLock { $0.reserve(count / Self.shardCount + 1) } }
    }

    /// Forgets every key: merging is over once planning ends.
    func removeAll() {
        for shard in shards { shard.keys.withLock { $0 = Keys() } }
    }
}
