#if canImport(Glibc)
    import Glibc
#endif

/// One anonymous mapping that holds a large asset's bytes, owned by an ``AssetMemory`` pool
/// while no asset uses it and by one `AssetBytes` while one does.
///
/// It is `@unchecked Sendable` because it is an address, not shared state: exactly one owner
/// (the pool, under its lock, or one immutable asset) reaches the memory at a time, and every
/// hand-over goes through the pool's lock.
struct MemoryRegion: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    /// Bytes mapped: the first request's size in whole pages (``pageRounded(_:)``).
    let capacity: Int
    /// The slab the region was carved from (``MemorySlabs``); nil for a mapping of its own.
    let slab: UnsafeMutableRawPointer?
    /// The shard of its pool that made it, where it goes back (see ``AssetMemory``).
    var home = 0

    init(base: UnsafeMutableRawPointer, capacity: Int, slab: UnsafeMutableRawPointer? = nil) {
        self.base = base
        self.capacity = capacity
        self.slab = slab
    }

    static let pageSize = 4096
    static let hugePageSize = 2 << 20

    /// Whole pages for `count` bytes: a fresh region's capacity, so a region holds no more
    /// than its first asset needs (with huge pages, a rounded-up tail would be resident too).
    static func pageRounded(_ count: Int) -> Int {
        (max(count, 1) + pageSize - 1) / pageSize * pageSize
    }

    /// The size class a request for `count` bytes looks for kept regions in: whole pages, and
    /// above 16 pages the next of eight steps per power of two (at most 12.5% more than asked).
    static func sizeClass(for count: Int) -> Int {
        let pages = pageRounded(count) / pageSize
        let step = classStep(pages)
        return (pages + step - 1) / step * step * pageSize
    }

    /// The size class a kept region of `capacity` bytes is filed under: the largest one it
    /// holds, so every request looking there fits in it.
    static func sizeClass(containedIn capacity: Int) -> Int {
        let pages = capacity / pageSize
        let step = classStep(pages)
        return pages / step * step * pageSize
    }

    /// Pages between size classes around `pages`: 1 up to 16 pages, then an eighth of the
    /// power of two at or below `pages`.
    private static func classStep(_ pages: Int) -> Int {
        pages > 16 ? (1 << (Int.bitWidth - 1 - pages.leadingZeroBitCount)) / 8 : 1
    }

    /// Maps `capacity` bytes (whole pages, 2 MiB or more: a large region or a slab) of fresh
    /// memory, or nil when the system refuses.
    ///
    /// The mapping starts on a 2 MiB boundary and asks for transparent huge pages over its whole
    /// 2 MiB blocks (the tail past the last one keeps 4 KiB pages, so a region never holds more
    /// than its capacity). A preloader keeps what it loads, so its memory is always fresh: with
    /// 4 KiB pages the kernel faults and zeroes it a page at a time, about 10% of decoding time
    /// measured here; huge pages cut the faults 512-fold.
    static func map(capacity: Int) -> MemoryRegion? {
        #if os(Linux)
            let extra = hugePageSize  // room to move the start to a boundary
            guard let raw = mmap(nil, capacity + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                raw != MAP_FAILED
            else { return nil }
            let address = Int(bitPattern: raw)
            let start = (address + hugePageSize - 1) & ~(hugePageSize - 1)
            if start > address { munmap(raw, start - address) }
            let tail = address + extra - start
            if tail > 0 { munmap(UnsafeMutableRawPointer(bitPattern: start + capacity), tail) }
            let base = UnsafeMutableRawPointer(bitPattern: start)!
            _ = madvise(base, capacity & ~(hugePageSize - 1), MADV_HUGEPAGE)
            return MemoryRegion(base: base, capacity: capacity)
        #else
            guard let base = malloc(capacity) else { return nil }
            return MemoryRegion(base: base, capacity: capacity)
        #endif
    }

    /// Gives the memory of a mapping of its own back to the system.
    func unmap() {
        #if os(Linux)
            munmap(base, capacity)
        #else
            free(base)
        #endif
    }
}

/// Bytes of one asset in a pooled region: returns the region to its pool when the last copy of
/// the asset goes. `@unchecked Sendable` for the region's reason: its fields never change, and
/// the bytes are written once, before the block exists.
final class PooledBlock: @unchecked Sendable {
    let region: MemoryRegion
    /// Bytes written and visible; never more than the region's capacity, never changed after
    /// the block is published in an `AssetBytes`.
    let count: Int
    private let pool: AssetMemory

    init(region: MemoryRegion, count: Int, pool: AssetMemory) {
        self.region = region
        self.count = count
        self.pool = pool
    }

    deinit { pool.recycle(region) }
}
