/// The file system as a source: every path not owned by another source or inside a container
/// is a file or folder on this disk, read with plain POSIX calls (``AssetFiles`` reads through
/// it; planning reads a small file ahead with the same `open` it learns its facts with).
public struct DiskSource: AssetSource {
    /// The disk.
    public init() {}

    /// Every path: the disk is what a path is when no other source owns it.
    public func owns(_ path: String) -> Bool { true }

    /// What `stat` says of `path` (``FileFacts/of(path:)``).
    public func facts(of path: String) throws(AssetError) -> FileFacts {
        try FileFacts.of(path: path)
    }

    /// The whole file, in one `read` where the kernel allows, refusing more than `limit` bytes.
    public func read(_ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes {
        try FileContents.assetBytes(path: path, limit: limit, memory: memory)
    }

    /// The first `count` bytes, without reading the rest.
    public func prefix(_ path: String, count: Int) throws -> [UInt8] {
        try FileContents.prefix(path: path, count: count)
    }

    /// The regular files below `folder` (``AssetFiles/files(under:)`` says what is refused).
    public func files(under folder: String) throws -> [String] {
        try DiskFolder.files(under: folder)
    }
}

extension DiskSource {
    /// A folder request's answer on disk: every non-hidden file below `folder` (a folder
    /// `isAssetFolder` accepts is a file, not walked into), sorted, walked on up to `threads`
    /// threads by the types `readdir` reports (``FolderWalk``: no `stat` per file), with what it
    /// skipped or could not list.
    package func walk(_ folder: String, threads: Int, isAssetFolder: @escaping @Sendable (String) -> Bool) -> FolderWalk {
        var walk = FolderWalk.walk(folder, threads: threads, isAssetFolder: isAssetFolder)
        walk.files.sort()
        return walk
    }
}
