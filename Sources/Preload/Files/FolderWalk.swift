import Dispatch
import Foundation
import Synchronization

/// The regular files below a folder, listed on several threads: each level of the tree is one
/// parallel pass over its directories (`readdir` of a folder of thousands of sprites is one
/// thread's work; twenty such folders are twenty).
///
/// The entry types `readdir` reports decide, and `stat` is called only for symbolic links and
/// entries of unknown type (FileManager's enumerator builds a full attribute dictionary per file,
/// owner names included: at 20,000 files that was most of the command's time). Hidden entries are
/// left out; a folder `isAssetFolder` accepts is a file (an asset of its own), not walked into.
///
/// Nothing else is left out without a word: a folder that cannot be listed (no permission, a
/// path too long) is in ``unreadable`` with the system's reason, and an entry that is neither a
/// file nor a folder (a FIFO, a socket, a device, a link to a folder) is in ``notFiles`` with
/// what it is.
package struct FolderWalk {
    /// Regular files (and links to them), and asset folders: each folder's sorted, the
    /// folders in no particular order.
    package var files: [String] = []
    /// Entries whose names are not UTF-8, shown with U+FFFD for the bytes that are not.
    package var badlyNamed: [String] = []
    /// The folders listed, the root first (what a watcher watches for new files).
    package var directories: [String] = []
    /// Folders (and entries) that could not be read, with the system's reason (`strerror`).
    package var unreadable: [(path: String, reason: String)] = []
    /// Entries that are neither regular files nor folders, with what they are.
    package var notFiles: [(path: String, reason: String)] = []
    /// Folders to walk next.
    private(set) var folders: [String] = []

    package init(files: [String] = []) {
        self.files = files
    }

    /// Walks the tree below `root` on up to `threads` threads.
    package static func walk(_ root: String, threads: Int, isAssetFolder: @escaping @Sendable (String) -> Bool) -> FolderWalk {
        var found = FolderWalk()
        var level = [root]
        while !level.isEmpty {
            found.directories += level
            let listings = ParallelMap.map(level, threads: threads) { listing(of: $0, isAssetFolder: isAssetFolder) }
            level = []
            for listing in listings {
                found.files += listing.files
                found.badlyNamed += listing.badlyNamed
                found.unreadable += listing.unreadable
                found.notFiles += listing.notFiles
                level += listing.folders
            }
            // Walked in order, so that a level's files come as sorted runs in sorted order: the
            // caller's sort of the whole list then finds one run (a comparison per file) unless a
            // folder's files fall between another's (`a-b/x.png` before `a/y.png`).
            level.sort()
        }
        return found
    }

    /// One folder's entries.
    private static func listing(of directory: String, isAssetFolder: (String) -> Bool) -> FolderWalk {
        var listing = FolderWalk()
        guard let stream = opendir(directory) else {
            listing.unreadable.append((directory, String(cString: strerror(errno))))
            return listing
        }
        defer { closedir(stream) }
        // The name of each entry listed in `files`, to sort them by: every path shares the folder,
        // and most names are small strings, compared in place (sorting the paths compared
        // their common folder each time: ~2,000 instructions per file; callgrind, issue 50).
        var names: [String] = []
        let folder = directory + "/"  // once, not once per entry
        while true {
            errno = 0  // readdir's end and its failure are told apart by errno
            guard let entry = readdir(stream) else { break }
            let (name, isUTF8) = withUnsafeBytes(of: entry.pointee.d_name) { raw -> (String, Bool) in
                // `d_name` ends with a NUL. Read as a C string: `String(validating:)` of the bytes
                // took ~1,000 instructions a name through the generic collection's path.
                let cString = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                if let valid = String(validatingCString: cString) { return (valid, true) }  // one pass for most names
                return (String(decoding: UnsafeRawBufferPointer(start: raw.baseAddress, count: strlen(cString)), as: UTF8.self), false)
            }
            guard !name.hasPrefix(".") else { continue }  // hidden files, "." and ".."
            guard isUTF8 else {
                listing.badlyNamed.append(folder + name)
                continue
            }
            if Int32(entry.pointee.d_type) == Int32(DT_REG) {  // most entries: a file, its path made once sorted
                names.append(name)
                continue
            }
            let listed = listing.files.count
            listing.add(folder + name, type: entry.pointee.d_type, isAssetFolder: isAssetFolder)
            if listing.files.count > listed { names.append(name) }
        }
        if errno != 0 { listing.unreadable.append((directory, String(cString: strerror(errno)))) }
        // Sorted here, on the walk's threads: the caller's sort of the whole list then only
        // merges these runs (a tenth of sorting 20,000 paths in no order). By name: one folder's
        // paths order as their names do, and the paths are made in that order.
        names.sort()
        listing.files = names.map { folder + $0 }
        return listing
    }

    /// The entry at `path`, of the `type` `readdir` reported (`d_type`), where it belongs: a
    /// folder or a regular file at `readdir`'s word, with no `stat` of its own; anything else
    /// (a link, an entry of unknown type) as ``classify(_:isAssetFolder:)`` finds it.
    mutating func add(_ path: String, type: UInt8, isAssetFolder: (String) -> Bool) {
        switch Int32(type) {
        case Int32(DT_DIR): add(folder: path, isAssetFolder: isAssetFolder)
        case Int32(DT_REG): files.append(path)
        default: classify(path, isAssetFolder: isAssetFolder)
        }
    }

    private mutating func add(folder path: String, isAssetFolder: (String) -> Bool) {
        if isAssetFolder(path) { files.append(path) } else { folders.append(path) }
    }

    /// An entry `readdir` did not type as a folder or a file: a real directory is walked, a
    /// regular file kept, and a symbolic link kept when it leads to a regular file or nowhere
    /// (links to directories are not followed, so a link loop cannot make the walk endless: they
    /// are listed in `notFiles`, as FIFOs, sockets and devices are).
    private mutating func classify(_ path: String, isAssetFolder: (String) -> Bool) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            unreadable.append((path, String(cString: strerror(errno))))
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: add(folder: path, isAssetFolder: isAssetFolder)
        case S_IFREG: files.append(path)
        case S_IFLNK:
            // A link to a file is kept; so is a dangling one, which then fails by name ("no such
            // file") rather than vanishing from the count.
            if stat(path, &info) != 0 || info.st_mode & S_IFMT == S_IFREG {
                files.append(path)
            } else {
                notFiles.append((path, info.st_mode & S_IFMT == S_IFDIR ? "a symbolic link to a folder (not followed)" : Self.kind(info.st_mode)))
            }
        default: notFiles.append((path, Self.kind(info.st_mode)))
        }
    }

    /// What a file of `mode` that is neither a regular file nor a folder is, for the report.
    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe), not a file"
        case S_IFSOCK: "a socket, not a file"
        case S_IFCHR: "a character device, not a file"
        case S_IFBLK: "a block device, not a file"
        default: "not a regular file"
        }
    }
}

/// `map` over several threads, keeping the order: a folder's walk and claims, which a folder of
/// 20,000 files would otherwise do on one.
package enum ParallelMap {
    /// `transform` of each item, in order, computed `chunk` items at a time on up to `threads` threads.
    package static func map<Result: Sendable>(
        _ items: [String], threads: Int, chunk: Int = 1, _ transform: @Sendable (String) -> Result
    ) -> [Result] {
        let chunks = (items.count + chunk - 1) / chunk
        guard chunks > 1, threads > 1 else { return items.map(transform) }
        let next = Atomic(0)
        let done = Locked<[Int: [Result]]>([:])
        DispatchQueue.concurrentPerform(iterations: min(threads, chunks)) { _ in
            while case let index = next.wrappingAdd(1, ordering: .relaxed).oldValue, index < chunks {
                let results = items[index * chunk..<min(items.count, (index + 1) * chunk)].map(transform)
                done.withLock { $0[index] = results }
            }
        }
        let finished = done.withLock { $0 }
        return (0..<chunks).flatMap { finished[$0]! }
    }
}
