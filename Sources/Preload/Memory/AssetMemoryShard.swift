import Synchronization

/// A released region and when it was released.
struct Kept {
    let region: MemoryRegion
    let since: ContinuousClock.Instant
}

/// One shard of an ``AssetMemory`` pool: the regions it keeps for reuse, the slabs it carves,
/// its counts. Every call is made under the shard's lock.
struct AssetMemoryShard {
    var configuration: AssetMemory.Configuration
    var statistics = AssetMemory.Statistics()
    /// Released regions by the size class they hold, most recently released last.
    var kept: [Int: [Kept]] = [:]
    /// No kept region was released before this (a lower bound): a release that finds nothing
    /// expired looks no further.
    var earliestKept: ContinuousClock.Instant?
    var sweepScheduled = false
    /// Where regions below 2 MiB are carved from.
    var slabs = MemorySlabs()
    /// Bytes of regions mapped on their own (2 MiB and more).
    var ownMappedBytes = 0
    /// How long loads have held the lock, taking and recycling regions, and how many times.
    var lockHeld = Duration.zero
    var operations = 0

    /// A kept region of at least `capacity` bytes and at most a quarter more, most recently
    /// released first. Regions are filed under the largest size class they hold, so the
    /// class at or below `capacity` holds regions of about its size (the last few are
    /// checked), and the class above holds regions that all fit.
    mutating func takeKept(fitting capacity: Int) -> MemoryRegion? {
        let below = MemoryRegion.sizeClass(containedIn: capacity)
        // Found first, removed after: holding the list while removing from it would copy it.
        let fitting = kept[below].flatMap { list in list.indices.reversed().prefix(8).first { list[$0].region.capacity >= capacity } }
        if let fitting { return removeKept(at: fitting, from: below) }
        let above = MemoryRegion.sizeClass(for: capacity)
        guard above != below, let count = kept[above]?.count, count > 0 else { return nil }
        return removeKept(at: count - 1, from: above)
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
        if let deadline, let earliest = earliestKept, earliest < deadline {
            // Each class's list is in release order: the expired ones lead it.
            earliestKept = nil
            for sizeClass in Array(kept.keys) {
                let expired = kept[sizeClass]!.prefix { $0.since < deadline }.count
                guard expired > 0 else { continue }
                for old in kept[sizeClass]!.prefix(expired) { evicted += giveUpKept(old.region) }
                kept[sizeClass]!.removeFirst(expired)
                if kept[sizeClass]!.isEmpty { kept[sizeClass] = nil }
            }
            earliestKept = oldest()?.1
        }
        while statistics.retainedBytes > limit, let (sizeClass, _) = oldest() {
            evicted += giveUpKept(kept[sizeClass]!.removeFirst().region)
            if kept[sizeClass]!.isEmpty { kept[sizeClass] = nil }
        }
        return evicted
    }

    /// Gives up a region taken out of the kept lists; returns it if it is to be unmapped.
    private mutating func giveUpKept(_ region: MemoryRegion) -> [MemoryRegion] {
        statistics.retainedBytes -= region.capacity
        return giveUp(region).map { [$0] } ?? []
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

    // MARK: What the pool does under this shard's lock

    /// A kept region of at least `capacity` bytes, now live again.
    mutating func reuse(fitting capacity: Int) -> MemoryRegion? {
        guard let region = takeKept(fitting: capacity) else { return nil }
        statistics.retainedBytes -= region.capacity
        statistics.liveBytes += region.capacity
        statistics.reusedRegions += 1
        return region
    }

    /// A fresh region carved from this shard's slabs, whose home is `home`.
    mutating func carve(_ capacity: Int, home: Int) -> MemoryRegion? {
        guard var region = slabs.carve(capacity) else { return nil }
        region.home = home
        statistics.liveBytes += capacity
        statistics.mappedRegions += 1
        return region
    }

    /// Counts a fresh mapping of its own made for this shard.
    mutating func adopt(_ region: MemoryRegion) {
        statistics.liveBytes += region.capacity
        statistics.mappedRegions += 1
        ownMappedBytes += region.capacity
    }

    /// Takes back a region whose asset is gone at `now`, keeping it for reuse when `keep`;
    /// gives up the expired ones. Returns the regions to unmap outside the lock, and whether a
    /// sweep must be scheduled.
    mutating func release(_ region: MemoryRegion, keep: Bool, at now: ContinuousClock.Instant) -> (unmap: [MemoryRegion], sweep: Bool) {
        statistics.liveBytes -= region.capacity
        var unmapped = evict(releasedBefore: now - .seconds(configuration.retentionSeconds))
        guard keep else {
            if let own = giveUp(region) { unmapped.append(own) }
            return (unmapped, false)
        }
        kept[MemoryRegion.sizeClass(containedIn: region.capacity), default: []].append(Kept(region: region, since: now))
        if earliestKept == nil { earliestKept = now }
        statistics.retainedBytes += region.capacity
        defer { sweepScheduled = true }
        return (unmapped, !sweepScheduled)
    }

    /// Bytes of address space this shard has mapped.
    var mappedBytes: Int { ownMappedBytes + slabs.mappedBytes }
}
