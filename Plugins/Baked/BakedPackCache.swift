import Preload
import PreloadConcurrency

/// Baked packs already opened: each one's index (read and checked once, however many entries are
/// planned and loaded), and its mapping while any asset made from it is held.
///
/// The index is kept (what loading reads of its records, and its names: about 75 bytes an
/// entry); the mapping is not: the assets hold it, so that unloading the last asset of a pack
/// unmaps it. A pack replaced on disk (a new bake renamed over it) has new `stat` facts and is
/// opened afresh; assets from the old one keep the old file.
final class BakedPackCache: Sendable {
    /// An opened pack.
    final class Opened: Sendable {
        let path: String
        let facts: FileFacts
        let index: BakedIndex
        private let mapping: PreloadMutex<WeakMapping>

        private struct WeakMapping: @unchecked Sendable {  // a weak reference to a Sendable class
            weak var value: FileMapping?
        }

        init(path: String, facts: FileFacts, index: BakedIndex, mapping: FileMapping) {
            self.path = path
            self.facts = facts
            self.index = index
            self.mapping = PreloadMutex(WeakMapping(value: mapping))
        }

        /// The pack's mapping: the one assets still hold, else a new one, of the same file.
        func mapped() throws(AssetError) -> FileMapping {
            try mapping.withLock { (slot) throws(AssetError) -> FileMapping in
                if let mapping = slot.value { return mapping }
                let mapping = try FileMapping(path: path)
                guard Key(path: path, facts: mapping.facts) == Key(path: path, facts: facts) else {
                    throw AssetError(path: path, category: .unreadable, reason: "the baked pack changed on disk while it was loading")
                }
                slot.value = mapping
                return mapping
            }
        }
    }

    /// A pack's identity: its path, and the file `stat` found there.
    private struct Key: Hashable {
        let path: String
        let device: UInt64
        let inode: UInt64
        let modified: Int64

        /// Facts of the pack, or of an entry in it (which carry the pack's identity).
        init(path: String, facts: FileFacts) {
            self.path = path
            device = facts.device
            inode = facts.inode
            modified = facts.modified
        }
    }

    private let opened = BoundedCache<Key, Opened>(capacity: 16)
    /// The pack found last: every entry of a pack asks for it (three times while planning and
    /// loading), and comparing its key here costs a fraction of the generic cache's lookup.
    private let recent = PreloadMutex<(key: Key, pack: Opened)?>(nil)

    /// The pack at `path`, opened (its index read and checked) if it was not already. `facts`
    /// (the pack's, or an entry's, from planning) spare a `stat`.
    func open(_ path: String, facts known: FileFacts? = nil) throws(AssetError) -> Opened {
        let facts: FileFacts
        if let known { facts = known } else { facts = try FileFacts.of(path: path) }
        let key = Key(path: path, facts: facts)
        if let known = recent.withLock({ $0?.key == key ? $0?.pack : nil }) { return known }
        if let known = opened[key] {
            recent.withLock { $0 = (key, known) }
            return known
        }
        let mapping = try FileMapping(path: path)
        let index: BakedIndex
        do {
            // Only what loading reads of each record (no source facts: a loader never checks sources).
            index = try mapping.withUnsafeBytes { bytes in try BakedIndex(file: bytes, checksum: BakedChecksum.crc32, wholeRecords: false) }
        } catch {
            throw AssetError(path: path, wrapping: error)
        }
        let pack = Opened(path: path, facts: mapping.facts, index: index, mapping: mapping)
        opened.insert(pack, for: Key(path: path, facts: mapping.facts))
        recent.withLock { $0 = (Key(path: path, facts: mapping.facts), pack) }
        return pack
    }
}
