import Preload

/// Pack indexes already read, keyed by path and by what `stat` says of the file (a pack
/// rewritten in place is read again). Planning asks for an index once per entry, so this is what
/// keeps a pack of thousands of entries from being parsed thousands of times.
final class PackIndexCache: Sendable {
    private struct Key: Hashable {
        let path: String
        let file: FileFacts
    }

    private let indexes = BoundedCache<Key, PackIndex>(capacity: 64)
    /// Packs held open for the bulk path (entries' first bytes at planning, runs of entries at
    /// loading): one `open` per pack, not one per entry or run. A few, closed when forgotten.
    private let files = BoundedCache<Key, OpenPackFile>(capacity: 8)

    func index(of path: String) throws -> PackIndex {
        try index(of: path, facts: try FileFacts.of(path: path))
    }

    /// The index of the pack at `path`, which `stat` just described as `facts` (planning's own
    /// `stat` of it): no `stat` of its own.
    func index(of path: String, facts: FileFacts) throws -> PackIndex {
        try indexes.value(for: Key(path: path, file: facts)) { try PackIndexReader.index(at: path) }
    }

    /// The pack at `path`, which planning found as `facts`, open for reading.
    func file(at path: String, facts: FileFacts) throws -> OpenPackFile {
        try files.value(for: Key(path: path, file: facts)) { try OpenPackFile(path: path) }
    }
}
