#if canImport(Glibc)
    import Glibc
#endif

/// How the `preload` command asks glibc's allocator to grow its heaps: by 16 MiB at a time
/// (`M_TOP_PAD`), not by the page or two a small texture needs. A loader thread's heap (one of
/// glibc's per-thread arenas) otherwise grows with one `mprotect` per 4 KiB: 5,000 system calls for
/// 20,000 16x16 PNGs, 4% of the command's CPU time (docs/benchmarks.md, "Issue 50: small-texture
/// allocations"). The pad is address space made writable, not memory: pages are resident only
/// once written, and peak memory is unchanged.
///
/// The command's own setting, made in its `main` before any work: a library never changes the
/// allocator of the game it is linked into, so the engine and the plugins leave it alone.
enum CommandAllocator {
    /// The heap growth asked for.
    static let topPad: Int32 = 16 << 20

    /// `M_TOP_PAD` of glibc's `<malloc.h>`, which Swift's Glibc module does not import.
    private static let topPadParameter: Int32 = -2

    /// Asks glibc for ``topPad``; whether it took it (`false` where the C library has no `mallopt`).
    @discardableResult
    static func configure() -> Bool {
        #if canImport(Glibc)
            typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
            // Found by name, from the C library already loaded (RTLD_DEFAULT): malloc.h is no module.
            guard let address = dlsym(nil, "mallopt") else { return false }
            return unsafeBitCast(address, to: MallocOption.self)(topPadParameter, topPad) == 1
        #else
            return false
        #endif
    }
}
