import Dispatch
import Foundation
import Preload
import PreloadTestSupport
import Testing

/// The pool behind large assets' bytes: what is pooled, reuse of released regions, the limits
/// on what is kept, and ownership under concurrent loads and releases.
@Suite struct AssetMemoryTests {
    /// Bytes `index, index + 1, ...` (wrapping), `count` of them, in `memory`.
    static func pattern(_ count: Int, from first: Int = 0, in memory: AssetMemory) -> AssetBytes {
        AssetBytes(unsafeUninitializedCapacity: count, memory: memory) { buffer, initialized in
            for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: first + index) }
            initialized = count
        }
    }

    static func pattern(_ count: Int, from first: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: first + $0) }
    }

    /// A pool whose kept regions never expire during a test (the default 10 s retention could
    /// pass while a loaded machine runs the suite, and a test expecting reuse would then fail).
    static func pool(
        smallestPooledSize: Int = 64 << 10, retainedLimit: Int = 256 << 20, retentionSeconds: Double = 3600
    ) -> AssetMemory {
        AssetMemory(configuration: .init(smallestPooledSize: smallestPooledSize, retainedLimit: retainedLimit, retentionSeconds: retentionSeconds))
    }

    static func address(of bytes: AssetBytes) -> Int {
        bytes.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
    }

    @Test func largeBytesArePooledAndSmallOnesAreArrays() {
        let memory = Self.pool(smallestPooledSize: 64 << 10)
        let large = Self.pattern(100_000, in: memory)
        let small = Self.pattern(1_000, in: memory)
        #expect(large.isPooled && !small.isPooled)
        #expect(large == Self.pattern(100_000) && small == Self.pattern(1_000))
        #expect(large == AssetBytes(Self.pattern(100_000)), "pooled and array bytes compare by content")
        #expect(large.hashValue == AssetBytes(Self.pattern(100_000)).hashValue)
        #expect(large != Self.pattern(100_000, from: 1))
        #expect(Array(large) == Self.pattern(100_000) && large.array == Self.pattern(100_000))
        #expect(large[99_999] == UInt8(truncatingIfNeeded: 99_999) && large.count == 100_000)
        #expect(memory.statistics.liveBytes >= 100_000 && memory.statistics.mappedRegions == 1)
    }

    @Test func aReleasedRegionServesTheNextLoadOfAboutItsSize() {
        let memory = Self.pool()
        var first: AssetBytes? = Self.pattern(300_000, in: memory)
        let firstAddress = Self.address(of: first!)
        first = nil
        #expect(memory.statistics.liveBytes == 0 && memory.statistics.retainedBytes >= 300_000)
        let second = Self.pattern(290_000, from: 7, in: memory)
        #expect(Self.address(of: second) == firstAddress, "the released region is reused")
        #expect(second.count == 290_000 && second == Self.pattern(290_000, from: 7))
        let stats = memory.statistics
        #expect(stats.reusedRegions == 1 && stats.mappedRegions == 1 && stats.retainedBytes == 0)
        let other = Self.pattern(1 << 20, in: memory)
        #expect(Self.address(of: other) != firstAddress && memory.statistics.mappedRegions == 2)
    }

    @Test func theSameSizeFindsItsRegionAgain() {
        let memory = Self.pool()
        for size in [65_536, 100_000, 300_000, 1_234_567, 3_686_400, 5_000_001] {
            var first: AssetBytes? = Self.pattern(size, in: memory)
            let address = Self.address(of: first!)
            first = nil
            let again = Self.pattern(size, from: 5, in: memory)
            #expect(Self.address(of: again) == address && again == Self.pattern(size, from: 5), "\(size) bytes")
        }
        #expect(memory.statistics.reusedRegions == 6)
    }

    @Test func copiesKeepTheRegionUntilTheLastOneGoes() {
        let memory = Self.pool()
        var original: AssetBytes? = Self.pattern(200_000, in: memory)
        let copy = original!
        original = nil
        #expect(memory.statistics.retainedBytes == 0 && copy == Self.pattern(200_000))
        let next = Self.pattern(200_000, from: 3, in: memory)
        #expect(Self.address(of: next) != Self.address(of: copy), "a region in use is never handed out")
    }

    @Test func noRetentionGivesRegionsBackAtOnce() {
        let memory = Self.pool(retainedLimit: 0)
        _ = Self.pattern(500_000, in: memory)
        _ = Self.pattern(500_000, in: memory)
        #expect(memory.statistics.retainedBytes == 0 && memory.statistics.mappedRegions == 2)
        #expect(memory.statistics.reusedRegions == 0)
    }

    @Test func theRetainedLimitCapsWhatIsKept() {
        let memory = Self.pool(retainedLimit: 1 << 20)
        do {
            let kept = [Self.pattern(600_000, in: memory), Self.pattern(600_000, in: memory)]
            #expect(kept.count == 2 && memory.statistics.liveBytes >= 1_200_000)
        }
        #expect(memory.statistics.retainedBytes <= 1 << 20 && memory.statistics.retainedBytes >= 600_000)
        memory.configuration.retainedLimit = 0
        #expect(memory.statistics.retainedBytes == 0, "lowering the limit gives the excess back")
    }

    @Test func trimGivesEverythingBack() {
        let memory = Self.pool()
        for size in [100_000, 400_000, 3 << 20] { _ = Self.pattern(size, in: memory) }
        let kept = memory.statistics.retainedBytes
        #expect(kept >= 100_000 + 400_000 + 3 << 20)
        #expect(memory.trim() == kept && memory.statistics.retainedBytes == 0)
    }

    @Test func keptRegionsExpire() async throws {
        let memory = Self.pool(retentionSeconds: 0.1)
        _ = Self.pattern(300_000, in: memory)
        #expect(memory.statistics.retainedBytes > 0)
        // A poll: the sweep is the pool's own timer, which signals nothing.
        let deadline = ContinuousClock.now + .seconds(120)  // generous: it ends as soon as the memory is back
        while memory.statistics.retainedBytes > 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(memory.statistics.retainedBytes == 0, "the idle sweep gave the region back")
    }

    @Test func aThrowingWriterGivesTheRegionBack() {
        struct Broken: Error {}
        let memory = Self.pool()
        #expect(throws: Broken.self) {
            _ = try AssetBytes(unsafeUninitializedCapacity: 200_000, memory: memory) { _, _ in throw Broken() }
        }
        #expect(memory.statistics.liveBytes == 0 && memory.statistics.retainedBytes >= 200_000)
    }

    @Test func onlyWrittenBytesAreVisible() {
        let memory = Self.pool()
        let bytes = AssetBytes(unsafeUninitializedCapacity: 200_000, memory: memory) { buffer, count in
            buffer[0] = 9
            buffer[1] = 8
            count = 2
        }
        #expect(bytes.isPooled && bytes == [9, 8] && bytes.count == 2)
    }

    @Test func largeRegionsStartOnHugePageBoundaries() {
        let memory = Self.pool()
        for size in [2 << 20, 3 << 20, 9 << 20 + 17] {
            let bytes = Self.pattern(size, in: memory)
            #expect(Self.address(of: bytes) % (2 << 20) == 0, "\(size) bytes")
        }
    }

    @Test func smallRegionsAreCarvedFromOneHugePageSlab() {
        let memory = Self.pool()
        let regions = (0..<10).map { Self.pattern(200_000, from: $0, in: memory) }
        let addresses = regions.map(Self.address(of:))
        let slab = addresses[0]
        #expect(slab % (2 << 20) == 0, "the slab starts on a huge page")
        #expect(addresses.allSatisfy { $0 >= slab && $0 < slab + (8 << 20) }, "one 8 MiB slab holds them all")
        #expect(Set(addresses).count == 10 && memory.statistics.mappedBytes == 8 << 20)
        #expect(regions.enumerated().allSatisfy { $1 == Self.pattern(200_000, from: $0) })
    }

    @Test func givingUpARegionLeavesItsNeighboursIntact() {
        let memory = Self.pool(retainedLimit: 0)
        let before = Self.pattern(300_000, from: 1, in: memory)
        var middle: AssetBytes? = Self.pattern(300_000, from: 2, in: memory)
        let after = Self.pattern(300_000, from: 3, in: memory)
        // 300,000 bytes take 74 pages: the three are neighbours in one slab.
        #expect(Self.address(of: after) - Self.address(of: before) == 2 * 74 * 4096)
        #expect(middle?.count == 300_000)
        middle = nil  // given up at once: its pages are discarded, its neighbours' must not be
        #expect(memory.statistics.liveBytes == 2 * 74 * 4096)
        #expect(before == Self.pattern(300_000, from: 1) && after == Self.pattern(300_000, from: 3))
    }

    @Test func slabsGoBackWhenNothingInThemIsLeft() {
        let memory = Self.pool(retainedLimit: 0)
        do {
            // 400,000 bytes take 98 pages: 20 fit in a slab, so 45 need three.
            let regions = (0..<45).map { Self.pattern(400_000, from: $0, in: memory) }
            #expect(memory.statistics.mappedBytes == 3 * (8 << 20) && regions.count == 45)
        }
        #expect(memory.statistics.mappedBytes == 8 << 20, "full slabs are unmapped; the one being carved stays")
        memory.trim()
        #expect(memory.statistics.mappedBytes == 0 && memory.statistics.liveBytes == 0)
        let again = Self.pattern(400_000, in: memory)
        #expect(again == Self.pattern(400_000) && memory.statistics.mappedBytes == 8 << 20)
    }

    @Test func freshRegionsAreTheRequestInWholePages() {
        let memory = Self.pool(smallestPooledSize: 1)
        for size in [1, 4096, 4097, 70_000, 1 << 20, (1 << 20) + 1, 5_000_000] {
            let bytes = Self.pattern(size, in: memory)
            let capacity = memory.statistics.liveBytes
            #expect(capacity >= size && capacity < size + 4096 && capacity % 4096 == 0, "\(size) bytes got \(capacity)")
            _ = bytes
            memory.trim()
        }
    }

    @Test func aReusedRegionAlwaysHoldsTheRequestAndAtMostAQuarterMore() {
        let memory = Self.pool(smallestPooledSize: 1)
        var random = SystemRandomNumberGenerator()
        do {  // released regions of every size up to 3 MiB
            _ = (0..<300).map { _ in Self.pattern(Int.random(in: 4096...(3 << 20), using: &random), in: memory) }
        }
        var reused = 0
        for _ in 0..<300 {
            let size = Int.random(in: 4096...(3 << 20), using: &random)
            let before = memory.statistics
            let bytes = AssetBytes(unsafeUninitializedCapacity: size, memory: memory) { _, count in count = size }
            let after = memory.statistics
            let capacity = after.liveBytes - before.liveBytes
            #expect(capacity >= size && capacity <= size + size / 4 + 4096, "\(size) bytes got \(capacity)")
            reused += after.reusedRegions - before.reusedRegions
            _ = bytes
        }
        #expect(reused > 100, "most requests found a kept region of about their size")
    }

    @Test func concurrentLoadsAndReleasesNeverShareARegion() {
        let memory = Self.pool(retainedLimit: 4 << 20)
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            // Each load fills its bytes with its own value; another owner of the same region
            // would overwrite some of them before the check.
            func load(_ step: Int) -> (AssetBytes, UInt8) {
                let value = UInt8(truncatingIfNeeded: worker * 31 + step)
                let size = 65_536 + (worker * 7_919 + step * 104_729) % 300_000
                let bytes = AssetBytes(unsafeUninitializedCapacity: size, memory: memory) { buffer, count in
                    buffer.initializeMemory(as: UInt8.self, repeating: value)
                    count = size
                }
                return (bytes, value)
            }
            func check(_ held: (AssetBytes, UInt8)) {
                if held.0 != [UInt8](repeating: held.1, count: held.0.count) { mismatches.withLock { $0 += 1 } }
            }
            var held: [(AssetBytes, UInt8)] = []
            for step in 0..<150 {
                held.append(load(step))
                if held.count > 4 { check(held.removeFirst()) }
            }
            held.forEach(check)
        }
        #expect(mismatches.withLock { $0 } == 0, "no region was written by two owners")
        let stats = memory.statistics
        #expect(stats.liveBytes == 0 && stats.retainedBytes <= 4 << 20)
        #expect(stats.reusedRegions > 0)
    }

    @Test func aTextureStillFitsAnExistentialInlineBuffer() {
        #expect(MemoryLayout<Texture>.size <= 3 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<AssetBytes>.size == MemoryLayout<Int>.size)
    }
}
