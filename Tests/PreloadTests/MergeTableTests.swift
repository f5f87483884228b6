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

    /// A table reserved for a batch's requests holds about 12 bytes a key once they are claimed
    /// (one 8-byte word a place, at most three quarters full, sized for what it holds), where a
    /// power of two of places at most half full held 16 to 32 (21 for 100,000 keys): planning
    /// holds it while every asset's record and the pack's index are held too.
    @Test func aReservedTableHoldsAboutTwelveBytesAKey() {
        for count in [100_000, 300_000] {
            let table = MergeTable()
            table.reserveCapacity(count)
            var merged = 0  // (distinct keys: none is merged)
            for entry in 0..<count {
                var mixed = UInt64(entry) &* 0x9E37_79B9_7F4A_7C15  // as a key's hash mixes
                mixed ^= mixed >> 29
                if table.claim(Int(truncatingIfNeeded: mixed), for: entry, matching: { _ in false }) != entry { merged += 1 }
            }
            #expect(merged == 0)
            #expect(table.bytesPerKey <= 13, "\(count) keys: \(table.bytesPerKey) bytes each")
        }
    }
}
