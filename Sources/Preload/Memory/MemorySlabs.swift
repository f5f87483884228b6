#if canImport(Glibc)
    import Glibc
#endif

/// Regions below 2 MiB, carved one after another out of shared 8 MiB mappings with transparent
/// huge pages ("slabs"), so fresh memory for a 256 KiB texture costs a share of one 2 MiB fault
/// instead of 64 faults of 4 KiB. Part of an ``AssetMemory`` pool's state: every call is made
/// under the pool's lock.
///
/// A carved region is never carved again; once its asset is gone it is kept by the pool like any
/// region, and reused from there. When the pool gives it up, its pages go back to the system at
/// once (`MADV_DONTNEED`, which splits the huge page) and the slab is unmapped when the last of
/// its regions is given up, so a long-lived asset pins address space, not memory. Discarding and
/// unmapping under the lock keeps an address from being reused by a new mapping while a discard
/// for the old one is still to come.
struct MemorySlabs {
    static let slabSize = 8 << 20

    /// Each mapped slab, with how many regions carved from it are not yet given up (in use or
    /// kept by the pool).
    private var outstanding: [UnsafeMutableRawPointer: Int] = [:]
    /// The slab being carved and how much of it is used.
    private var current: (base: UnsafeMutableRawPointer, used: Int)?

    /// Bytes of address space the slabs take.
    var mappedBytes: Int { outstanding.count * Self.slabSize }

    /// Whether regions of `capacity` bytes come from slabs (smaller than a huge page).
    static func carves(_ capacity: Int) -> Bool {
        capacity < MemoryRegion.hugePageSize
    }

    /// A fresh region of `capacity` bytes (a page multiple below 2 MiB) from the current slab,
    /// or from a new one when it is full; nil when the system has no memory to map.
    mutating func carve(_ capacity: Int) -> MemoryRegion? {
        if let (base, used) = current, used + capacity <= Self.slabSize {
            current = (base, used + capacity)
            outstanding[base]! += 1
            return MemoryRegion(base: base + used, capacity: capacity, slab: base)
        }
        retireCurrent()
        guard let slab = MemoryRegion.map(capacity: Self.slabSize) else { return nil }
        outstanding[slab.base] = 1
        current = (slab.base, capacity)
        return MemoryRegion(base: slab.base, capacity: capacity, slab: slab.base)
    }

    /// Gives a carved region's pages back to the system, and its slab once nothing in it is left.
    mutating func giveUp(_ region: MemoryRegion) {
        guard let base = region.slab, let count = outstanding[base] else { return }
        outstanding[base] = count - 1
        if count == 1 && current?.base != base {
            unmap(base)
        } else {
            _ = madvise(region.base, region.capacity, MADV_DONTNEED)
        }
    }

    /// Unmaps the slab being carved if nothing carved from it is left (the pool is trimmed).
    mutating func retireIdle() {
        if let (base, _) = current, outstanding[base] == 0 { retireCurrent() }
    }

    /// Stops carving the current slab: unmapped now if nothing carved from it is left.
    private mutating func retireCurrent() {
        guard let (base, _) = current else { return }
        current = nil
        if outstanding[base] == 0 { unmap(base) }
    }

    private mutating func unmap(_ base: UnsafeMutableRawPointer) {
        outstanding[base] = nil
        MemoryRegion(base: base, capacity: Self.slabSize).unmap()
    }
}
