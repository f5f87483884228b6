#if canImport(Glibc)
    import Glibc
#endif
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

/// Where each entry of a pack goes when extracted into a folder, checked before anything is
/// written: names must stay inside the folder, folders on the way must not be symbolic links
/// (which could lead outside), and existing files are only replaced when asked to.
package struct ExtractionPlan {
    /// Why an extraction was refused, every problem at once.
    package struct Refusal: Error, CustomStringConvertible {
        package let problems: [String]
        package var description: String {
            let shown = problems.prefix(20).map { "\n  - " + $0 }.joined()
            return "extraction refused, nothing was written:" + shown + (problems.count > 20 ? "\n  ... and \(problems.count - 20) more" : "")
        }
    }

    package let targets: [(entry: PackIndex.Entry, destination: String)]

    package init(index: PackIndex, into folder: String, overwrite: Bool) throws {
        var targets: [(PackIndex.Entry, String)] = []
        var problems: [String] = []
        for entry in index.entries {
            if let reason = PackEntryName.escapeReason(entry.name) {
                problems.append("'\(entry.name)' would land outside \(folder): \(reason)")
                continue
            }
            let destination = folder + "/" + entry.name
            var walked = folder
            for component in entry.name.split(separator: "/").dropLast() {
                walked += "/" + component
                if Self.isSymbolicLink(walked) { problems.append("'\(entry.name)' would pass through the symbolic link \(walked)") }
            }
            if !overwrite, Self.exists(destination) {
                problems.append("\(destination) exists (use --overwrite to replace it)")
            }
            targets.append((entry, destination))
        }
        guard problems.isEmpty else { throw Refusal(problems: problems) }
        self.targets = targets
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
