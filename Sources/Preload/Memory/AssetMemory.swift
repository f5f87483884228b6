import PreloadConcurrency
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch
import Synchronization

/// Where large loaded assets live: a pool of memory regions that recycles the memory of
/// released textures and data for the next loads.
///
/// A preloader keeps everything it loads, so without recycling every load lands in memory the
/// process has never touched, which the kernel must fault in and zero first: 10–15% of decode
/// and inflate time measured here, and the whole gap between keeping results and a loop that
/// frees each one. When a game unloads a level and loads the next, the pool hands the old
/// level's memory, already faulted in, to the new one.
///
/// - Assets of ``Configuration-swift.struct/smallestPooledSize`` or more get a region with
///   transparent huge pages: a 2 MiB-aligned mapping of its own from 2 MiB up, carved from a
///   shared 8 MiB slab below that. Smaller assets are plain arrays, which `malloc` already
///   recycles well.
/// - When the last copy of an asset goes, its region is kept for reuse, up to
///   ``Configuration-swift.struct/retainedLimit`` bytes in all and for
///   ``Configuration-swift.struct/retentionSeconds`` at most; then it is given back to the
///   system. ``trim()`` gives everything back at once, e.g. after a level has loaded.
/// - ``statistics`` says what is in use and what is kept: the memory is never hidden.
/// - The pool is split into shards, each behind its own lock: a load takes memory from its own
///   thread's shard first (other shards' kept regions next, fresh memory last), and a region goes
///   back to the shard that made it. Loads on many cores do not queue for one lock.
///
/// Loads use the coordinator's pool (``PreloadCoordinator/Configuration/memory``, by default
/// ``shared``), which plugins get as `LoadContext.memory`; decoders called directly
/// (``AssetBytes``'s writing initializer, `PNGDecoder.decode`) accept one too.
///
/// Huge pages are a request: with transparent huge pages off they are ordinary pages, and with
/// the kernel's `defrag` setting at `madvise` (a common default) a fault may compact memory to
/// find one, which costs latency on a fragmented system.
public final class AssetMemory: Sendable {
    private final class Shard: Sendable {
        let state: PreloadMutex<AssetMemoryShard>
        init(_ configuration: Configuration) { state = PreloadMutex(AssetMemoryShard(configuration: configuration)) }
    }

    /// A power of two: a thread's shard is a hash of its identity.
    private static let shardCount = 8
    private let shards: [Shard]
    /// Bytes kept for reuse in all shards, against ``Configuration-swift.struct/retainedLimit``.
    private let retained = Atomic(0)
    /// ``Configuration-swift.struct/smallestPooledSize``, read without a lock on every load.
    private let smallestPooledSize: Atomic<Int>

    /// The pool loads use unless configured otherwise.
    public static let shared = AssetMemory()

    /// A pool of its own with `configuration` (most games use ``shared``).
    public init(configuration: Configuration = Configuration()) {
        shards = (0..<Self.shardCount).map { _ in Shard(configuration) }
        smallestPooledSize = Atomic(configuration.smallestPooledSize)
    }

    /// The calling thread's shard.
    private var currentShard: Int {
        let identity = ThreadIdentity.current.raw
        return Int(truncatingIfNeeded: (identity &* 0x9E37_79B9_7F4A_7C15) >> 61) & (Self.shardCount - 1)
    }

    /// Runs `body` under shard `index`'s lock, counting how long the lock is held: every
    /// eighth time, times eight (reading the clock twice costs about what a pool operation does).
    private func withShard<Result>(_ index: Int, _ body: (inout sending AssetMemoryShard) -> sending Result) -> sending Result {
        shards[index].state.withLock { (shard: inout sending AssetMemoryShard) -> sending Result in
            shard.operations &+= 1
            guard shard.operations & 7 == 0 else { return body(&shard) }
            let acquired = ContinuousClock.now
            defer { shard.lockHeld += (ContinuousClock.now - acquired) * 8 }
            return body(&shard)
        }
    }

    /// The pool's limits. Lowering ``Configuration-swift.struct/retainedLimit`` gives the
    /// excess back at once.
    public var configuration: Configuration {
        get { shards[0].state.withLock { $0.configuration } }
        set {
            smallestPooledSize.store(newValue.smallestPooledSize, ordering: .relaxed)
            var excess = retained.load(ordering: .relaxed) - newValue.retainedLimit
            for index in shards.indices {
                let evicted = withShard(index) { shard -> [MemoryRegion] in
                    shard.configuration = newValue
                    guard excess > 0 else { return [] }
                    let before = shard.statistics.retainedBytes
                    let evicted = shard.evict(keepingAtMost: max(0, before - excess))
                    excess -= before - shard.statistics.retainedBytes
                    retained.subtract(before - shard.statistics.retainedBytes, ordering: .relaxed)
                    return evicted
                }
                for region in evicted { region.unmap() }
            }
        }
    }

    /// Bytes in use and kept, and counts of reused and fresh regions, over every shard.
    public var statistics: Statistics {
        shards.indices.reduce(into: Statistics()) { total, index in
            let (shard, mapped) = shards[index].state.withLock { ($0.statistics, $0.mappedBytes) }
            total.liveBytes += shard.liveBytes
            total.retainedBytes += shard.retainedBytes
            total.reusedRegions += shard.reusedRegions
            total.mappedRegions += shard.mappedRegions
            total.mappedBytes += mapped
        }
    }

    /// How long loads held the shards' locks in all, taking and recycling regions (estimated
    /// from every eighth operation). With the shards used in parallel, what does not scale is
    /// about this over ``shardCount`` (or over the number of threads, when fewer).
    @_spi(Diagnostics) public var lockHeld: Duration {
        shards.reduce(.zero) { total, shard in total + shard.state.withLock { $0.lockHeld } }
    }

    /// How many shards the pool has.
    @_spi(Diagnostics) public static var shards: Int { shardCount }

    /// Gives every kept region back to the system; returns how many bytes that was.
    @discardableResult
    public func trim() -> Int {
        var bytes = 0
        for index in shards.indices {
            let evicted = withShard(index) { shard -> [MemoryRegion] in
                bytes += shard.statistics.retainedBytes
                retained.subtract(shard.statistics.retainedBytes, ordering: .relaxed)
                let evicted = shard.evict(keepingAtMost: 0)
                shard.slabs.retireIdle()
                return evicted
            }
            for region in evicted { region.unmap() }
        }
        return bytes
    }

    /// Whether an asset of `count` bytes is pooled rather than a plain array.
    func pools(_ count: Int) -> Bool {
        count >= smallestPooledSize.load(ordering: .relaxed)
    }

    /// A region of at least `count` bytes: a kept one if one fits (at most a quarter larger),
    /// from this thread's shard first, then the others; fresh otherwise (carved from a slab
    /// below 2 MiB, a mapping of its own from there up); nil when the system has no memory.
    func take(count: Int) -> MemoryRegion? {
        let capacity = MemoryRegion.pageRounded(count)
        let home = currentShard
        let anyKept = retained.load(ordering: .relaxed) > 0
        for offset in 0..<(anyKept ? Self.shardCount : 1) {
            let index = (home + offset) & (Self.shardCount - 1)
            if let region = withShard(index, { $0.reuse(fitting: capacity) }) {
                retained.subtract(region.capacity, ordering: .relaxed)
                return region
            }
        }
        if MemorySlabs.carves(capacity) { return withShard(home) { $0.carve(capacity, home: home) } }
        guard var fresh = MemoryRegion.map(capacity: capacity) else { return nil }
        fresh.home = home
        withShard(home) { $0.adopt(fresh) }
        return fresh
    }

    /// Takes back a region whose asset is gone, in the shard that made it: keeps it for reuse
    /// within the limits, or gives it back to the system.
    func recycle(_ region: MemoryRegion) {
        let now = ContinuousClock.now
        let (limit, retention) = shards[region.home].state.withLock { ($0.configuration.retainedLimit, $0.configuration.retentionSeconds) }
        var keep = retention > 0
        if keep, retained.add(region.capacity, ordering: .relaxed).newValue > limit {
            retained.subtract(region.capacity, ordering: .relaxed)
            keep = false
        }
        let (unmapped, sweep) = withShard(region.home) { shard -> ([MemoryRegion], Bool) in
            let before = shard.statistics.retainedBytes
            let released = shard.release(region, keep: keep, at: now)
            // Expired regions it gave up leave the count of kept bytes too.
            retained.subtract(before + (keep ? region.capacity : 0) - shard.statistics.retainedBytes, ordering: .relaxed)
            return released
        }
        for old in unmapped { old.unmap() }
        if sweep { scheduleSweep(of: region.home, after: retention) }
    }

    /// Gives back the regions a shard kept longer than the retention time, and comes back later
    /// while any are left, so memory a game stopped using returns to the system even if it loads
    /// nothing more.
    private func scheduleSweep(of index: Int, after seconds: Double) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + seconds + 0.05) { [weak self] in
            guard let self else { return }
            let now = ContinuousClock.now
            let (expired, next) = self.shards[index].state.withLock { shard -> ([MemoryRegion], Double?) in
                let before = shard.statistics.retainedBytes
                let retention = shard.configuration.retentionSeconds
                let expired = shard.evict(releasedBefore: now - .seconds(retention))
                self.retained.subtract(before - shard.statistics.retainedBytes, ordering: .relaxed)
                shard.sweepScheduled = !shard.kept.isEmpty
                return (expired, shard.sweepScheduled ? max(retention, 0.05) : nil)
            }
            for region in expired { region.unmap() }
            if let next { self.scheduleSweep(of: index, after: next) }
        }
    }
}
