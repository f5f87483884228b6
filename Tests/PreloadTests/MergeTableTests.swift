import Testing

@testable import Preload

/// The merge table keeps (key hash, asset) and asks whether keys match: a hash is never taken
/// for a key.
@Suite struct MergeTableTests {
    @Test func keysWithOneHashStayApartUnlessTheyMatch() {
        let table = MergeTable()
        #expect(table.asset(of: 42, matching: { _ in true }) == nil, "an empty table knows no asset")
        #expect(table.claim(42, for: 1) { _ in false } == 1)
        #expect(table.claim(42, for: 2) { _ in false } == 2, "the same hash, another key: a new asset")
        #expect(table.claim(42, for: 3) { $0 == 2 } == 2)
        #expect(table.asset(of: 42) { $0 == 1 } == 1 && table.asset(of: 42) { _ in false } == nil)
        #expect(table.asset(of: 43) { _ in true } == nil)
    }

    @Test func everyKeyIsFoundAgainAsTheTableGrows() {
        let table = MergeTable()
        table.reserveCapacity(10)
        // Hashes that share their low bits (one shard) and collide in pairs.
        for entry in 0..<20_000 { #expect(table.claim((entry / 2) << 4, for: entry) { _ in false } == entry) }
        #expect((0..<20_000).allSatisfy { entry in table.asset(of: (entry / 2) << 4) { $0 == entry } == entry })
        #expect(table.claim(77 << 4, for: 99_999) { $0 == 155 } == 155)
        table.removeAll()
        #expect(table.asset(of: 0) { _ in true } == nil)
    }
}
