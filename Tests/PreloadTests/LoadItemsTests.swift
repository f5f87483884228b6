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
}
