import Testing

@testable import Preload

/// A load keeps a run of consecutive plain items (a listed run of a baked pack's entries) as
/// their range, 24 bytes for the whole load, not a 32-byte ``LoadItem`` per asset: a batch holds
/// every load's items until it starts. Items that need more (bytes read ahead, a budget's
/// estimate, declared dependencies) or that are not consecutive are kept as they are.
@Suite struct LoadItemsTests {
    @Test func aRunOfPlainItemsIsItsRange() {
        let items = LoadItems((100..<356).map { LoadItem(asset: $0, contents: nil) })
        #expect(items.isRun && items.run == 100..<356 && items.count == 256)
        #expect(items.map(\.asset) == Array(100..<356) && items[5].asset == 105)
        #expect(items.allSatisfy { $0.isPlain })
        #expect(MemoryLayout<LoadItems>.size <= 24, "a list and a range, whatever the count")
    }

    @Test func itemsThatNeedMoreAreKeptAsTheyAre() {
        var budgeted = LoadItem(asset: 1, contents: nil)
        budgeted.decodedBytes = 64
        let withBudget = LoadItems([LoadItem(asset: 0, contents: nil), budgeted])
        #expect(!withBudget.isRun && withBudget.count == 2 && withBudget[1].decodedBytes == 64)
        let read = LoadItems([LoadItem(asset: 0, contents: AssetBytes([1, 2, 3]))])
        #expect(!read.isRun && read[0].contents?.count == 3)
        var declared = LoadItem(asset: 3, contents: nil)
        declared.dependencies = [(AssetRequest(path: "/a.png"), 9)]
        let dependent = LoadItems([declared])
        #expect(!dependent.isRun && dependent[0].hasDependencies && dependent[0].dependencies.map(\.asset) == [9])
        let gap = LoadItems([LoadItem(asset: 0, contents: nil), LoadItem(asset: 2, contents: nil)])
        #expect(!gap.isRun && gap.map(\.asset) == [0, 2])
        #expect(LoadItems([]).isEmpty && !LoadItems([]).isRun && LoadItems.none.isEmpty)
    }

    /// A load moves each item's read-ahead bytes into the item's context
    /// (``LoadItems/takeContents(at:)``): when the context moves on to the next file, the bytes
    /// go (back to the pool), not when the whole load ends. Copied out, the list kept them.
    @Test func readAheadBytesTakenFromTheItemsGoWithTheirTaker() {
        let memory = AssetMemory(configuration: .init(smallestPooledSize: 1 << 10))
        func readAhead(_ fill: UInt8) -> AssetBytes {
            AssetBytes(unsafeUninitializedCapacity: 8 << 10, memory: memory) { buffer, count in
                buffer.initializeMemory(as: UInt8.self, repeating: fill)
                count = buffer.count
            }
        }
        var items = LoadItems([LoadItem(asset: 0, contents: readAhead(1)), LoadItem(asset: 1, contents: readAhead(2))])
        let bothLive = memory.statistics.liveBytes
        #expect(bothLive >= 16 << 10)
        do {
            let taken = items.takeContents(at: 0)
            #expect(taken?.isPooled == true && taken?.count == 8 << 10 && taken?.allSatisfy { $0 == 1 } == true)
        }
        let takenAgain = items.takeContents(at: 0)
        #expect(items[0].contents == nil && takenAgain == nil, "the item keeps no bytes")
        #expect(memory.statistics.liveBytes == bothLive / 2, "the first file's bytes went with their taker; the list keeps the second's")
        #expect(items[1].contents?.first == 2 && items.asset(at: 1) == 1 && !items.hasDependencies(at: 1))
        var run = LoadItems((10..<20).map { LoadItem(asset: $0, contents: nil) })
        let fromRun = run.takeContents(at: 3)
        #expect(run.isRun && fromRun == nil && run.asset(at: 3) == 13)
    }
}
