import Foundation
import Preload

#if canImport(Glibc)
    import Glibc
#endif

/// A bake cache in a folder: `cas/<hex>` and `ac/<hex>` files (``BakeCacheArea``), as a Bazel
/// disk cache lays them out. Each file is written beside its place under a temporary name and
/// renamed into it (`AtomicFile`), so several processes may fill one folder at once: a reader
/// sees a whole file or none, and two writers of one key write the same bytes. Files are not
/// flushed to disk one by one (a power cut may leave one short: reading refuses it by its
/// SHA-256, and the next bake writes it again).
///
/// The default folder is `$XDG_CACHE_HOME/preload/bake`, else `~/.cache/preload/bake`
/// (``defaultFolder(environment:)``). A shared folder (a network mount) is a store too.
public struct LocalBakeCache: BakeCacheStore {
    /// The cache's folder (made on the first write).
    public let folder: String

    /// The cache in `folder`.
    public init(folder: String) { self.folder = folder }

    /// `$XDG_CACHE_HOME/preload/bake`, else `$HOME/.cache/preload/bake`; `nil` when neither
    /// variable is set.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/preload/bake" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.cache/preload/bake"
    }

    /// The folder's path.
    public var displayName: String { folder }

    /// The file that holds `key` in `area`. Throws for a key that is not lowercase hex (it
    /// would name another file).
    public func path(_ area: BakeCacheArea, _ key: String) throws(BakeCacheError) -> String {
        guard !key.isEmpty, key.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw BakeCacheError(location: "\(folder)/\(area.rawValue)", reason: "\(key) is not a lowercase hex key")
        }
        return "\(folder)/\(area.rawValue)/\(key)"
    }

    /// The file's bytes; `nil` when there is no such file (or no such folder yet).
    public func read(_ area: BakeCacheArea, _ key: String) async throws -> [UInt8]? {
        let path = try path(area, key)
        do {
            return try FileContents.read(path: path)
        } catch  where error.category == .fileNotFound {
            return nil
        } catch {
            throw BakeCacheError(location: path, reason: error.reason)
        }
    }

    /// Writes the file beside its place and renames it there.
    public func write(_ area: BakeCacheArea, _ key: String, _ bytes: [UInt8]) async throws {
        let path = try path(area, key)
        do {
            let file = try AtomicFile(path: path)
            try file.write(bytes)
            try file.commit(flushing: false)  // what a power cut spoils is refused on reading: its SHA-256
        } catch let error as AtomicFile.WriteError {
            throw BakeCacheError(location: path, reason: error.reason)
        }
    }

    /// Whether the file is there.
    public func contains(_ area: BakeCacheArea, _ key: String) async throws -> Bool {
        access(try path(area, key), F_OK) == 0
    }
}
