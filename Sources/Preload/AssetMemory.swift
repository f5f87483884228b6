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
///
/// Loads use the coordinator's pool (``PreloadCoordinator/Configuration/memory``, by default
/// ``shared``), which plugins get as ``LoadContext/memory``; decoders called directly
/// (``AssetBytes``'s writing initializer, `PNGDecoder.decode`) accept one too.
///
/// Huge pages are a request: with transparent huge pages off they are ordinary pages, and with
/// the kernel's `defrag` setting at `madvise` (a common default) a fault may compact memory to
/// find one, which costs latency on a fragmented system.
public final class AssetMemory: Sendable {
    private struct Kept {
        let region: MemoryRegion
        let since: ContinuousClock.Instant
    }

    private struct State {
        var configuration: Configuration
        var statistics = Statistics()
        /// Released regions by the size class they hold, most recently released last.
        var kept: [Int: [Kept]] = [:]
        var sweepScheduled = false
        /// Where regions below 2 MiB are carved from.
        var slabs = MemorySlabs()
        /// Bytes of regions mapped on their own (2 MiB and more).
        var ownMappedBytes = 0

        /// A kept region of at least `capacity` bytes and at most a quarter more, most recently
        /// released first. Regions are filed under the largest size class they hold, so the
        /// class at or below `capacity` holds regions of about its size (the last few are
        /// checked), and the class above holds regions that all fit.
        mutating func takeKept(fitting capacity: Int) -> MemoryRegion? {
            let below = MemoryRegion.sizeClass(containedIn: capacity)
            if let list = kept[below], let index = list.indices.reversed().prefix(8).first(where: { list[$0].region.capacity >= capacity }) {
                return removeKept(at: index, from: below)
            }
            let above = MemoryRegion.sizeClass(for: capacity)
            guard above != below, let list = kept[above], !list.isEmpty else { return nil }
            return removeKept(at: list.count - 1, from: above)
        }

        private mutating func removeKept(at index: Int, from sizeClass: Int) -> MemoryRegion {
            let region = kept[sizeClass]!.remove(at: index).region
            if kept[sizeClass]!.isEmpty { kept[sizeClass] = nil }
            return region
        }

        /// Gives up a region the pool does not keep: a carved one at once (under the lock, see
        /// ``MemorySlabs``); one of its own is returned, to be unmapped outside the lock.
        mutating func giveUp(_ region: MemoryRegion) -> MemoryRegion? {
            if region.slab != nil {
                slabs.giveUp(region)
                return nil
            }
            ownMappedBytes -= region.capacity
            return region
        }

        /// Gives up kept regions released before `deadline`, and the oldest ones until at most
        /// `limit` bytes stay; returns those with mappings of their own, to be unmapped outside
        /// the lock.
        mutating func evict(releasedBefore deadline: ContinuousClock.Instant? = nil, keepingAtMost limit: Int = .max) -> [MemoryRegion] {
            var evicted: [MemoryRegion] = []
            while let (capacity, since) = oldest(),
                statistics.retainedBytes > limit || deadline.map({ since < $0 }) == true
            {
                let region = kept[capacity]!.removeFirst().region
                if kept[capacity]!.isEmpty { kept[capacity] = nil }
                statistics.retainedBytes -= region.capacity
                if let own = giveUp(region) { evicted.append(own) }
            }
            return evicted
        }

        /// The size class and release time of the region kept longest (each class's list is
        /// in release order, so only the first of each is a candidate).
        private func oldest() -> (Int, ContinuousClock.Instant)? {
            var found: (Int, ContinuousClock.Instant)?
            for (capacity, list) in kept {
                if let first = list.first, found.map({ first.since < $0.1 }) ?? true { found = (capacity, first.since) }
            }
            return found
        }
    }

    private let state: Mutex<State>
    /// ``Configuration-swift.struct/smallestPooledSize``, read without the lock on every load.
    private let smallestPooledSize: Atomic<Int>

    /// The pool loads use unless configured otherwise.
    public static let shared = AssetMemory()

    public init(configuration: Configuration = Configuration()) {
        state = Mutex(State(configuration: configuration))
        smallestPooledSize = Atomic(configuration.smallestPooledSize)
    }

    /// The pool's limits. Lowering ``Configuration-swift.struct/retainedLimit`` gives the
    /// excess back at once.
    public var configuration: Configuration {
        get { state.withLock { $0.configuration } }
        set {
            let evicted = state.withLock { state in
                state.configuration = newValue
                smallestPooledSize.store(newValue.smallestPooledSize, ordering: .relaxed)
                return state.evict(keepingAtMost: newValue.retainedLimit)
            }
            for region in evicted { region.unmap() }
        }
    }

    /// Bytes in use and kept, and counts of reused and fresh regions.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.mappedBytes = state.ownMappedBytes + state.slabs.mappedBytes
            return statistics
        }
    }

    /// Gives every kept region back to the system; returns how many bytes that was.
    @discardableResult
    public func trim() -> Int {
        let (evicted, bytes) = state.withLock { state in
            let bytes = state.statistics.retainedBytes
            let evicted = state.evict(keepingAtMost: 0)
            state.slabs.retireIdle()
            return (evicted, bytes)
        }
        for region in evicted { region.unmap() }
        return bytes
    }

    /// Whether an asset of `count` bytes is pooled rather than a plain array.
    func pools(_ count: Int) -> Bool {
        count >= smallestPooledSize.load(ordering: .relaxed)
    }

    /// A region of at least `count` bytes: a kept one if one fits (at most a quarter larger),
    /// fresh otherwise (carved from a slab below 2 MiB, a mapping of its own from there up); nil
    /// when the system has no memory to map.
    func take(count: Int) -> MemoryRegion? {
        let capacity = MemoryRegion.pageRounded(count)
        let carves = MemorySlabs.carves(capacity)
        let reused = state.withLock { state -> MemoryRegion? in
            if let kept = state.takeKept(fitting: capacity) {
                state.statistics.retainedBytes -= kept.capacity
                state.statistics.liveBytes += kept.capacity
                state.statistics.reusedRegions += 1
                return kept
            }
            guard carves, let carved = state.slabs.carve(capacity) else { return nil }
            state.statistics.liveBytes += capacity
            state.statistics.mappedRegions += 1
            return carved
        }
        if let reused { return reused }
        guard !carves, let fresh = MemoryRegion.map(capacity: capacity) else { return nil }
        state.withLock { state in
            state.statistics.liveBytes += capacity
            state.statistics.mappedRegions += 1
            state.ownMappedBytes += capacity
        }
        return fresh
    }

    /// Takes back a region whose asset is gone: keeps it for reuse within the limits, or gives
    /// it back to the system.
    func recycle(_ region: MemoryRegion) {
        let now = ContinuousClock.now
        let (unmapped, schedule) = state.withLock { state -> ([MemoryRegion], Double?) in
            state.statistics.liveBytes -= region.capacity
            let retention = state.configuration.retentionSeconds
            var unmapped = state.evict(releasedBefore: now - .seconds(retention))
            guard retention > 0, state.statistics.retainedBytes + region.capacity <= state.configuration.retainedLimit else {
                if let own = state.giveUp(region) { unmapped.append(own) }
                return (unmapped, nil)
            }
            state.kept[MemoryRegion.sizeClass(containedIn: region.capacity), default: []].append(Kept(region: region, since: now))
            state.statistics.retainedBytes += region.capacity
            let schedule = state.sweepScheduled ? nil : retention
            state.sweepScheduled = true
            return (unmapped, schedule)
        }
        for old in unmapped { old.unmap() }
        if let schedule { scheduleSweep(after: schedule) }
    }

    /// Gives back the regions kept longer than the retention time, and comes back later while
    /// any are left, so memory a game stopped using returns to the system even if it loads
    /// nothing more.
    private func scheduleSweep(after seconds: Double) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + seconds + 0.05) { [weak self] in
            guard let self else { return }
            let now = ContinuousClock.now
            let (expired, next) = self.state.withLock { state -> ([MemoryRegion], Double?) in
                let retention = state.configuration.retentionSeconds
                let expired = state.evict(releasedBefore: now - .seconds(retention))
                state.sweepScheduled = !state.kept.isEmpty
                return (expired, state.sweepScheduled ? max(retention, 0.05) : nil)
            }
            for region in expired { region.unmap() }
            if let next { self.scheduleSweep(after: next) }
        }
    }
}
