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

    func index(of path: String) throws -> PackIndex {
        try indexes.value(for: Key(path: path, file: try FileFacts.of(path: path))) { try PackIndexReader.index(at: path) }
    }
}
