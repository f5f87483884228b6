import PreloadConcurrency
import Synchronization

/// Which asset each key was merged into, while a batch plans: requests with equal
/// ``AssetKey``s share one asset, named by the entry that claimed the key first.
///
/// Split into shards by the key's hash, each behind its own lock, so that planning threads
/// merging their chunks do not queue for one lock.
final class MergeTable: Sendable {
    private final class Shard: Sendable {
        let assets = PreloadMutex<[AssetKey: Int]>([:])
    }

    private static let shardCount = 16
    private let shards: [Shard] = (0..<MergeTable.shardCount).map { _ in Shard() }

    /// The asset of `key`: an existing one, or `entry`'s new one if nobody claimed it yet.
    func claim(_ key: AssetKey, for entry: Int) -> Int {
        shards[key.shard(among: Self.shardCount)].assets.withLock { assets in
            // One lookup: the defaulting subscript inserts `entry` when the key is new.
            func owner(_ asset: inout Int) -> Int { asset }
            return owner(&assets[key, default: entry])
        }
    }

    /// The asset `key` was merged into, if any.
    func asset(of key: AssetKey) -> Int? {
        shards[key.shard(among: Self.shardCount)].assets.withLock { $0[key] }
    }

    /// Makes room for about `count` keys.
    func reserveCapacity(_ count: Int) {
        for shard in shards { shard.assets.withLock { $0.reserveCapacity(count / Self.shardCount + 1) } }
    }

    /// Forgets every key: merging is over once planning ends.
    func removeAll() {
        for shard in shards { shard.assets.withLock { $0 = [:] } }
    }
}
