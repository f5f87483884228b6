import Foundation
import Preload
import PreloadConcurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A folder of downloaded files, content-addressed: each file is stored once under its SHA-256
/// (`blobs/SHA256.ext`), written under a temporary name and renamed into place only once its
/// bytes are checked, so a file in `blobs/` is always whole and right. `index.json` maps each
/// URL to its file and the server's ETag (for revalidation with `If-None-Match`) and keeps the
/// downloads cut short (`partial/`, resumed with `Range` and `If-Range`). No path is made from a
/// URL's text: only its extension, reduced to letters and digits, so that the copy is claimed
/// by the plugin its URL's name would be.
///
/// Bounded: past ``limit`` bytes the least recently used files go. Several processes may share
/// a cache: the index is read and written under an exclusive `flock` of `lock`, and a file
/// is renamed into place atomically. Opening a cache removes what an interrupted process left
/// behind (temporary files, files no entry names) and forgets entries whose file is gone.
///
/// ```swift
/// import PreloadRemote
///
/// let cache = try RemoteCache(folder: RemoteCache.defaultFolder, limit: 512 << 20)
/// print(cache.statistics.files, "files,", cache.statistics.bytes, "bytes")
/// ```
public final class RemoteCache: Sendable {
    /// The folder.
    public let folder: String
    /// The most bytes of files it keeps; past that, the least recently used go.
    public let limit: Int64
    /// The index as this process knows it: what `index.json` held when last read or written
    /// (its `stat` then, to tell when another process wrote it), and the uses not written yet.
    private struct Known {
        var index = RemoteCacheIndex()
        var stamp: IndexStamp?
        /// When each URL was last used, since the index was last written: a lookup does not
        /// write the index (a level of 600 cached files would write it 600 times); the next
        /// write, or ``flush()``, carries them.
        var uses: [String: Double] = [:]
    }

    private let known = PreloadMutex(Known())
    /// The index's lock file, open for `flock`.
    private let lockDescriptor: Int32

    /// `$XDG_CACHE_HOME/preload`, or `~/.cache/preload`: where the command keeps its cache
    /// unless `--cache` says otherwise.
    public static var defaultFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/preload" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/preload"
    }

    /// The cache in `folder` (made if missing), keeping at most `limit` bytes (4 GiB by default).
    public init(folder: String, limit: Int64 = 4 << 30) throws {
        self.folder = folder
        self.limit = limit
        let files = FileManager.default
        for sub in ["", "/blobs", "/partial"] {
            do {
                try files.createDirectory(atPath: folder + sub, withIntermediateDirectories: true)
            } catch {
                throw RemoteCacheError(folder: folder, reason: "cannot make \(folder + sub): \(error.localizedDescription)")
            }
        }
        lockDescriptor = open(folder + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockDescriptor >= 0 else {
            throw RemoteCacheError(folder: folder, reason: "cannot open its lock file: \(String(cString: strerror(errno)))")
        }
        try withIndex { index in
            Self.tidy(folder: folder, index: &index)
        }
    }

    deinit {
        flush()
        close(lockDescriptor)
    }

    /// How full the cache is.
    public struct Statistics: Sendable, Hashable {
        /// URLs it has a file for.
        public var urls: Int
        /// Distinct files (two URLs with the same bytes share one).
        public var files: Int
        /// Their bytes.
        public var bytes: Int64
        /// Downloads cut short, kept to resume.
        public var partials: Int
    }

    /// How full the cache is now.
    public var statistics: Statistics {
        read { index in
            Statistics(urls: index.entries.count, files: index.blobNames.count, bytes: index.blobBytes, partials: index.partials.count)
        }
    }

    /// Writes the uses of cached files noted since the index was last written (the fetcher
    /// does after each fetch, and the cache as it goes away).
    public func flush() {
        guard known.withLock({ !$0.uses.isEmpty }) else { return }
        try? withIndex { _ in }
    }

    // MARK: For the fetcher

    /// The extension of the URL's path (before any query or fragment), letters and digits only,
    /// with its dot; empty if it has none, or a strange one.
    static func suffix(of url: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        let name = AssetPath.fileName(of: path.split(separator: "#", maxSplits: 1).first.map(String.init) ?? path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        let ext = name[name.index(after: dot)...].lowercased()
        guard (1...16).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return "" }
        return "." + ext
    }

    /// The path of a file in `blobs/`.
    func blobPath(_ entry: RemoteCacheIndex.Entry) -> String { folder + "/blobs/" + RemoteCacheIndex.blobName(entry) }

    /// A new temporary file's path for a download (in `partial/`, a random name).
    func newPartialPath() -> (name: String, path: String) {
        let name = UUID().uuidString.lowercased() + ".part"
        return (name, folder + "/partial/" + name)
    }

    /// The path a patch of the pack cached for `url` is written to (`partial/patch-HASH.part`),
    /// the same in every process, so that a patch killed midway resumes from the journal kept
    /// beside it (``patchJournalNames(for:)``); `nil` where SHA-256 is missing.
    func patchPath(for url: String) -> String? { Self.patchName(for: url).map { folder + "/partial/" + $0 } }

    /// `patch-HASH.part` for `url`: the first 24 hex digits of its SHA-256.
    private static func patchName(for url: String) -> String? {
        (try? SHA256.hash(data: Array(url.utf8))).map { "patch-" + $0.hexString.prefix(24) + ".part" }
    }

    /// The names in `partial/` of the journal of a patch of `url`'s pack (`NAME.patch`,
    /// `NAME.patch.json`): kept while the cache holds a version of that pack to patch.
    static func patchJournalNames(for url: String) -> [String] {
        patchName(for: url).map { [$0 + ".patch", $0 + ".patch.json"] } ?? []
    }

    /// The path of a kept partial download's file.
    func partialPath(_ name: String) -> String { folder + "/partial/" + name }

    /// Runs `body` with the index as it is on disk now, under the cache's locks (this process's
    /// and `flock`'s, so that no other process writes between), and writes it back (with the
    /// uses noted since the last write) if anything changed.
    @discardableResult
    func withIndex<Result>(_ body: (inout RemoteCacheIndex) throws -> Result) throws -> Result {
        try known.withLock { (known: inout Known) throws -> Result in
            guard flock(lockDescriptor, LOCK_EX) == 0 else {
                throw RemoteCacheError(folder: folder, reason: "cannot lock its index: \(String(cString: strerror(errno)))")
            }
            defer { flock(lockDescriptor, LOCK_UN) }
            refresh(&known)
            var index = known.index
            for (url, time) in known.uses where index.entries[url] != nil { index.entries[url]!.lastUsed = max(index.entries[url]!.lastUsed, time) }
            let result = try body(&index)
            if index.entries != known.index.entries || index.partials != known.index.partials || !known.uses.isEmpty {
                try writeIndex(index)
                known.stamp = IndexStamp(path: indexPath)
                known.uses = [:]
            }
            known.index = index
            return result
        }
    }

    /// Runs `body` with the index as this process knows it, read again only if another process
    /// wrote it since (one `stat`).
    func read<Result>(_ body: (RemoteCacheIndex) -> Result) -> Result {
        known.withLock { known in
            if known.stamp != IndexStamp(path: indexPath) {
                flock(lockDescriptor, LOCK_SH)
                refresh(&known)
                flock(lockDescriptor, LOCK_UN)
            }
            return body(known.index)
        }
    }

    /// Reads `index.json` into `known` if it changed since it was last read or written.
    private func refresh(_ known: inout Known) {
        let stamp = IndexStamp(path: indexPath)
        guard stamp != known.stamp || stamp == nil else { return }
        known.index = readIndex() ?? RemoteCacheIndex()
        for (url, time) in known.uses { known.index.entries[url]?.lastUsed = time }
        known.stamp = stamp
    }

    /// The entry for `url`, if its file is there, noted as used now.
    func entry(for url: String) throws -> RemoteCacheIndex.Entry? {
        let found = read { $0.entries[url] }
        guard let entry = found else { return nil }
        guard access(blobPath(entry), F_OK) == 0 else {
            try withIndex { index in index.entries[url] = nil }  // removed behind the cache's back
            return nil
        }
        touch(url: url)
        return entry
    }

    /// Moves the checked download at `partial` into `blobs/` as `entry`'s file (or drops it if
    /// the same bytes are there already) and records it for `url`; then evicts what is over the
    /// limit. Returns the file's path.
    func commit(url: String, downloaded partial: String, as entry: RemoteCacheIndex.Entry) throws -> String {
        let path = blobPath(entry)
        try withIndex { index in
            if access(path, F_OK) == 0 {
                unlink(partial)
            } else if rename(partial, path) != 0 {
                let reason = String(cString: strerror(errno))
                unlink(partial)
                throw RemoteCacheError(folder: folder, reason: "cannot move a download into place: \(reason)")
            }
            index.entries[url] = entry
            if let old = index.partials.removeValue(forKey: url), partialPath(old.file) != partial { removeIfIdle(partialPath(old.file)) }
            evict(&index, keeping: [url])
        }
        return path
    }

    /// Keeps the download for `url` cut short at `partial` (named `name`), with the validators
    /// of its response and the SHA-256 it was promised, for the next download of `url` to resume
    /// (or, with neither a validator nor a promise, to say why it starts over); `keep` false
    /// removes it.
    func keepPartial(
        url: String, name: String, validators: ResumeValidators, sha256: String?, totalSize: Int64?, keep: Bool = true
    ) {
        guard keep else { return discardPartial(url: url, name: name) }
        do {
            try withIndex { index in
                if let old = index.partials[url], old.file != name { removeIfIdle(partialPath(old.file)) }
                index.partials[url] = .init(
                    file: name, etag: validators.etag, lastModified: validators.lastModified, date: validators.date, sha256: sha256,
                    totalSize: totalSize, lastUsed: Date().timeIntervalSince1970)
                evict(&index, keeping: [url])
            }
        } catch {
            unlink(partialPath(name))
        }
    }

    /// Removes the partial download `name` of `url`, file and record.
    func discardPartial(url: String, name: String) {
        unlink(partialPath(name))
        try? withIndex { index in
            if let old = index.partials.removeValue(forKey: url) { removeIfIdle(partialPath(old.file)) }
        }
    }

    /// The kept partial download of `url`, if its file is there (a download adopts it only if
    /// it can lock the file: no other download, in this process or another, writes it).
    func partial(for url: String) -> RemoteCacheIndex.Partial? {
        read { $0.partials[url] }.flatMap { access(partialPath($0.file), F_OK) == 0 ? $0 : nil }
    }

    /// Notes `url`'s entry as used now (written with the index's next write, or ``flush()``).
    func touch(url: String) {
        let now = Date().timeIntervalSince1970
        known.withLock { known in
            known.uses[url] = now
            known.index.entries[url]?.lastUsed = now
        }
    }

    /// Forgets `url` (its file goes when no other URL names it).
    public func remove(url: String) throws {
        try withIndex { index in
            guard let entry = index.entries.removeValue(forKey: url) else { return }
            if !index.blobNames.contains(RemoteCacheIndex.blobName(entry)) { unlink(blobPath(entry)) }
            if let partial = index.partials.removeValue(forKey: url) { removeIfIdle(partialPath(partial.file)) }
        }
    }

    private func evict(_ index: inout RemoteCacheIndex, keeping: Set<String>) {
        let (blobs, partials) = index.evict(toFit: limit, keeping: keeping)
        for name in blobs { unlink(folder + "/blobs/" + name) }
        for name in partials { removeIfIdle(partialPath(name)) }
    }

    /// Removes the partial download at `path` unless a download holds its lock (writes it now).
    private func removeIfIdle(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
        close(descriptor)
    }

    // MARK: The index on disk

    private var indexPath: String { folder + "/index.json" }

    private func readIndex() -> RemoteCacheIndex? {
        guard let data = FileManager.default.contents(atPath: indexPath) else { return nil }
        return (try? JSONDecoder().decode(RemoteCacheIndex.self, from: data))?.validated()
    }

    private func writeIndex(_ index: RemoteCacheIndex) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(index)
        let temporary = folder + "/index.json." + UUID().uuidString.lowercased() + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data), rename(temporary, indexPath) == 0 else {
            unlink(temporary)
            throw RemoteCacheError(folder: folder, reason: "cannot write its index: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes what an interrupted process left (temporary index files, blobs and partial files
    /// no entry names) and forgets entries and partials whose file is gone.
    private static func tidy(folder: String, index: inout RemoteCacheIndex) {
        let files = FileManager.default
        for (url, entry) in index.entries where access(folder + "/blobs/" + RemoteCacheIndex.blobName(entry), F_OK) != 0 {
            index.entries[url] = nil
        }
        for (url, partial) in index.partials where access(folder + "/partial/" + partial.file, F_OK) != 0 {
            index.partials[url] = nil
        }
        let named = index.blobNames
        for name in (try? files.contentsOfDirectory(atPath: folder + "/blobs")) ?? [] where !named.contains(name) {
            unlink(folder + "/blobs/" + name)
        }
        // A partial file no entry names is left over, unless a download holds its lock (one in
        // flight, in another process, not yet in the index).
        let kept = Set(index.partials.values.map(\.file) + index.entries.keys.flatMap(patchJournalNames))
        for name in (try? files.contentsOfDirectory(atPath: folder + "/partial")) ?? [] where !kept.contains(name) {
            let descriptor = open(folder + "/partial/" + name, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(folder + "/partial/" + name) }
            close(descriptor)
        }
        for name in (try? files.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix("index.json.") {
            unlink(folder + "/" + name)
        }
    }
}

/// A cache folder that cannot be made, locked or written.
public struct RemoteCacheError: Error, Sendable, CustomStringConvertible {
    /// The cache's folder.
    public let folder: String
    /// What went wrong.
    public let reason: String
    public var description: String { "cache \(folder): \(reason)" }
}

/// What `stat` says of `index.json`: another process's write (a rename over it) changes it.
struct IndexStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}
