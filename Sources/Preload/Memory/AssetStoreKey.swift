extension AssetStore {
    /// A name (or normalized path) with its hash, computed once: the hash picks the shard and
    /// keys the shard's table, so storing an asset hashes its name's characters once. Names are
    /// hashed by their UTF-8 bytes (``NameScan``), as the file system tells paths apart.
    struct Key: Hashable {
        let text: String
        let hash: Int

        init(_ text: String) {
            self.init(text, hash: NameScan(text).hash)
        }

        init(_ text: String, hash: Int) {
            self.text = text
            self.hash = hash
        }

        var shard: Int { hash & (AssetStore.shardCount - 1) }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        /// What the tables hash a key by: its hash (already mixed from all its bytes) mixed with
        /// the table's seed, without a `Hasher` (seeding, combining and finalizing one cost
        /// ~150 instructions per asset stored; callgrind, docs/benchmarks.md, issue 50).
        func _rawHashValue(seed: Int) -> Int {
            var mixed = UInt64(UInt(bitPattern: hash ^ seed)) &* 0xBF58_476D_1CE4_E5B9
            mixed ^= mixed >> 31
            return Int(truncatingIfNeeded: mixed)
        }
        /// Equal bytes, as the hash (`String`'s own `==` would also match canonically equivalent
        /// spellings, which hash differently here).
        static func == (lhs: Key, rhs: Key) -> Bool { lhs.hash == rhs.hash && NameScan.sameBytes(lhs.text, rhs.text) }
    }
}
