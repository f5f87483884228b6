import Preload

#if canImport(Glibc)
    import Glibc
#endif

/// Where each entry of a pack goes when extracted into a folder, checked before anything is
/// written: names must stay inside the folder, folders on the way must not be symbolic links
/// (which could lead outside), and existing files are only replaced when asked to.
public struct ExtractionPlan: Sendable {
    /// Why an extraction was refused, every problem at once.
    public struct Refusal: AssetFailure {
        /// Each problem, one sentence naming the entry or the file.
        public let problems: [String]
        /// A refused extraction is none of the load failures' classes.
        public var category: AssetError.Category { .other }
        public var description: String {
            let shown = problems.prefix(20).map { "\n  - " + $0 }.joined()
            return "extraction refused, nothing was written:" + shown + (problems.count > 20 ? "\n  ... and \(problems.count - 20) more" : "")
        }
    }

    /// Each entry and the path it is to be written to, in the index's order.
    public let targets: [(entry: PackIndex.Entry, destination: String)]

    /// The plan for extracting the pack `index` lists into `folder`, replacing existing files
    /// only when `overwrite`; throws ``Refusal`` with every problem when any entry cannot be
    /// written safely. Nothing is written: read each target's bytes with
    /// ``EntryReader/read(_:from:limits:memory:isCancelled:progress:)`` and write them.
    public init(index: PackIndex, into folder: String, overwrite: Bool) throws {
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
