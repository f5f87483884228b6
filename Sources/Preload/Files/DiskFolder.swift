import Foundation

/// Listing folders on disk for sprite folders and packs. Nothing below the folder is left out
/// silently (a sprite or a pack entry nobody was told is missing): hidden files and folders are
/// skipped by rule, and anything else that is not a folder or a regular file, or a folder that
/// cannot be listed, is an error naming it.
package enum DiskFolder {
    /// The regular files below `folder` (following symbolic links), as paths relative to it with
    /// `/` separators, sorted; hidden files and folders are left out. Throws for a FIFO, device
    /// or socket, a dangling symbolic link, a folder that cannot be listed (FileManager's
    /// enumerator would leave it out without a word), and a name that is not UTF-8 (which no
    /// Swift `String`, and so no path Preload could open, can spell).
    package static func files(under folder: String) throws(AssetError) -> [String] {
        try checkListable(folder)
        guard let walker = FileManager.default.enumerator(atPath: folder) else {
            throw AssetError(path: folder, category: .unreadable, reason: "cannot be read as a folder")
        }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            if AssetPath.fileName(of: relative).hasPrefix(".") {
                walker.skipDescendants()
            } else if try !facts(of: folder + "/" + relative, listedAs: relative).isDirectory {
                files.append(relative)
            } else {
                try checkListable(folder + "/" + relative)
            }
        }
        return files.sorted()
    }

    /// Throws unless the folder at `path` can be listed.
    private static func checkListable(_ path: String) throws(AssetError) {
        guard let stream = opendir(path) else {
            throw .unlistableFolder(path: path, reason: String(cString: strerror(errno)))
        }
        closedir(stream)
    }

    /// What is at `path`, which the folder listing gave as `relative`, or why it cannot be used.
    private static func facts(of path: String, listedAs relative: String) throws(AssetError) -> FileFacts {
        do {
            return try FileFacts.of(path: path)
        } catch  where error.category == .fileNotFound && relative.unicodeScalars.contains("\u{FFFD}") {
            // The listing decoded a name that is not UTF-8 lossily: nothing has the name it gave.
            throw .nameNotUTF8(path: path)
        } catch  where error.category == .fileNotFound {
            throw AssetError(path: path, category: .fileNotFound, reason: "no such file (a dangling symbolic link?)")
        }
    }
}

extension AssetError {
    /// For a folder that cannot be listed (`opendir` or `readdir` failed with `reason`, the
    /// system's words): it fails by its path, rather than its files going missing.
    package static func unlistableFolder(path: String, reason: String) -> AssetError {
        AssetError(path: path, category: .unreadable, reason: "cannot be read (\(reason)): its files would be missing")
    }

    /// For a file found by listing a folder whose name is not UTF-8: `path` is its lossy
    /// spelling (U+FFFD for the bytes that are not), which names no file.
    package static func nameNotUTF8(path: String) -> AssetError {
        AssetError(
            path: path, category: .unreadable,
            reason: "its name is not valid UTF-8 (shown here with U+FFFD), so Preload cannot open it by name; rename it")
    }
}
