import Testing

@testable import PreloadCLI

/// The command's allocator setting (docs/benchmarks.md, "Issue 50: small-texture allocations"):
/// glibc takes it. A wrong parameter number, or no `mallopt` found, is refused (`mallopt`
/// returns 0), and the command would silently grow its heaps a page at a time again.
@Suite struct CommandAllocatorTests {
    @Test func glibcTakesTheHeapPad() {
        #if canImport(Glibc)
            #expect(CommandAllocator.configure())
            #expect(CommandAllocator.topPad == 16 << 20)
        #else
            #expect(!CommandAllocator.configure())
        #endif
    }
}
