import Preload

/// Opens any pack ``PackLoader`` reads, telling the container from its first bytes: with
/// ``EntryReader``, what a tool needs to list, check or extract a pack without loading its entries
/// as assets (`preload pack list` does this).
public enum PackIndexReader {
    /// The container format `header` (a file's first bytes) starts like, if any.
    package static func format(of header: [UInt8]) -> PackIndex.Format? {
        if header.starts(with: PackFormat.magic) { return .pak }
        if header.starts(with: [0x50, 0x4B, 0x03, 0x04]) || header.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if header.starts(with: [0x1F, 0x8B]) { return .gzip }
        return nil
    }

    /// The index of the pack at `path` (a `.pak`, zip or gzip file, told apart by its first
    /// bytes, not its name); throws ``PackError`` when the file is none of them or its index is
    /// damaged. Entries with a problem of their own (a name escaping the pack, say) are listed
    /// with it in ``PackIndex/Entry/problem``.
    public static func index(at path: String) throws -> PackIndex {
        switch format(of: try AssetFiles.local.prefix(path, count: 8)) {
        case .pak: try PakFile.index(at: path)
        case .zip: try ZipFile.index(at: path)
        case .gzip: try GzipFile.index(at: path)
        case nil: throw PackError.notAPack
        }
    }
}
