#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import PreloadConcurrency

/// The folders the store's paths name, each resolved once to its real path (absolute, symbolic
/// links resolved), so that a lookup by a file's real path finds an asset requested through
/// another spelling of its folder: `../assets/hero.png` from a build folder, a path through a
/// linked folder. A folder is resolved the first time an asset from it is stored (one
/// `realpath` per folder, not per file); a lookup resolves its own folder only when the name
/// and the lexical path have both missed. Split into shards by folder, as the store is, so that
/// loads finishing on many cores do not queue for one lock.
final class FolderSpellings: Sendable {
    private struct Table {
        /// The folders seen (as written, normalized) whose hash picks this shard.
        var seen: Set<String> = []
        /// Each real folder whose hash picks this shard, with the spellings it was written as,
        /// where they differ.
        var written: [String: [String]] = [:]
    }

    private final class Shard: Sendable {
        let table = PreloadMutex(Table())
    }

    private static let shardCount = 16
    private let shards = (0..<FolderSpellings.shardCount).map { _ in Shard() }

    private func withShard<Result>(of folder: String, _ body: (inout Table) -> Result) -> Result {
        shards[NameScan(folder).hash & (Self.shardCount - 1)].table.withLock { body(&$0) }
    }

    /// Records `folders` (of paths as stored: normalized), resolving those not seen before.
    func record(_ folders: [String]) {
        for folder in folders {
            guard withShard(of: folder, { $0.seen.insert(folder).inserted }), let real = Self.realPath(folder), real != folder else { continue }
            withShard(of: real) { $0.written[real, default: []].append(folder) }
        }
    }

    /// The folders of a batch's paths, in the order they arrive: a folder's files arrive
    /// together, so each path's folder is compared, byte for byte where the path is, with the
    /// one before it, and made a `String` only when it changes (made for every path, as a
    /// `Substring` found through the generic `lastIndex(of:)` and compared as Unicode text, it
    /// cost 1,216 instructions per stored asset; found again in a pass of its own, 284;
    /// callgrind, docs/benchmarks.md, issue 50). ``record(_:)`` takes ``folders``.
    struct Run {
        private var last: [UInt8]?  // the bytes of the folder noted last, as written
        /// Each folder noted, once per run of paths in it.
        private(set) var folders: [String] = []

        /// Notes the folder of `path` (normalized) whose last slash is at `lastSlash` (-1: none).
        mutating func note(_ path: UnsafeBufferPointer<UInt8>, lastSlash: Int) {
            // The folder, as written: up to the last slash (`/` for a file in the root), or `.`.
            let written = lastSlash < 0 ? FolderSpellings.dot : UnsafeBufferPointer(rebasing: path[..<max(lastSlash, 1)])
            if let last, last.count == written.count,
                last.withUnsafeBufferPointer({ memcmp($0.baseAddress!, written.baseAddress!, written.count) == 0 })
            {
                return
            }
            last = Array(written)
            folders.append(String(decoding: written, as: UTF8.self))
        }

        /// Notes the folder of `path` (normalized), finding its last slash.
        mutating func note(_ path: String) {
            NameScan.withBytes(of: path) { bytes in
                note(bytes, lastSlash: bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1)
            }
        }
    }

    /// The folder of a bare file name, as bytes.
    private nonisolated(unsafe) static let dot = UnsafeBufferPointer(start: StaticString(".").utf8Start, count: 1)

    /// The other spellings, as stored, of the file at `path` (relative or absolute): its folder
    /// resolved to its real path, followed back to how stored paths wrote that folder.
    func spellings(of path: String) -> [String] {
        let normalized = AssetPath.normalized(path)
        guard let real = Self.realPath(Self.folder(of: normalized)) else { return [] }
        let name = AssetPath.fileName(of: normalized)
        return (withShard(of: real) { $0.written[real] } ?? []).map { $0 == "." ? name : $0 + "/" + name }
    }

    /// The folder of a normalized path: `.` for a bare file name.
    private static func folder(of path: String) -> String { AssetPath.directory(of: path) ?? "." }

    /// `path`'s real path, or `nil` if it cannot be resolved (it does not exist, a URL, a pack's
    /// entry).
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
