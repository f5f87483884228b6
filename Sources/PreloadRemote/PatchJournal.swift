import Foundation
import Preload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a pack patch has fetched so far, kept beside its destination so that a patch cut midway
/// (a dropped connection, a killed process) resumes where it stopped: `DEST.patch` holds the
/// fetched bytes at their offsets in the new pack (a sparse file of its length), and
/// `DEST.patch.json` the byte ranges of it that arrived, and which version of the pack they
/// belong to (its header's bytes, which hold its index's CRC-32 and length). A journal of
/// another version is dropped. The bytes are written before the ranges that name them, and
/// every entry is checked against its CRC-32 before it is used, so a range named but damaged
/// costs a fetch again, never a wrong pack.
final class PatchJournal: @unchecked Sendable {  // used by one patch at a time: its task, or the transport thread while the task waits
    private struct Saved: Codable {
        var version: String
        var received: [[UInt64]]
    }

    /// The file of fetched bytes.
    let dataPath: String
    private let statePath: String
    private let version: String
    /// The file of fetched bytes, open for writing.
    let descriptor: Int32
    /// The byte ranges fetched, in order, not touching.
    private(set) var received: [Range<UInt64>] = []
    /// The bytes ``received`` held when the journal was opened (fetched by an earlier attempt).
    let resumedBytes: UInt64
    /// The bytes ``add(_:)`` noted since the journal was opened (what came over the network).
    private(set) var addedBytes: UInt64 = 0
    private var unsaved: UInt64 = 0

    /// The journal of the patch to `destination` for the pack whose header is `header` and
    /// length `length`: the one kept there, if it is for that pack, else a new one.
    init(destination: String, header: [UInt8], length: UInt64) throws(RemoteFetchError) {
        dataPath = destination + ".patch"
        statePath = destination + ".patch.json"
        version = header.map { String($0, radix: 16) }.joined(separator: ".")
        // Locked while in use: another process patching the same destination waits for none
        // of it, and the cache's tidying leaves a journal in use alone.
        descriptor = open(dataPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cache("cannot keep the patch's bytes in \(dataPath): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .cache("\(dataPath): another process is patching the same pack")
        }
        var kept: [Range<UInt64>] = []
        if let data = FileManager.default.contents(atPath: statePath), let saved = try? JSONDecoder().decode(Saved.self, from: data),
            saved.version == version
        {
            kept = saved.received.compactMap { $0.count == 2 && $0[0] < $0[1] && $0[1] <= length ? $0[0]..<$0[1] : nil }
        } else {
            unlink(statePath)
            ftruncate(descriptor, 0)  // another version's bytes
        }
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            close(descriptor)
            throw .cache("cannot keep the patch's bytes in \(dataPath): \(String(cString: strerror(errno)))")
        }
        for range in kept { Self.add(range, to: &received) }
        resumedBytes = received.reduce(0) { $0 + UInt64($1.count) }
    }

    deinit { close(descriptor) }

    /// Notes `range` as fetched (its bytes are written); saves the ranges every 256 KiB.
    /// `counted` off: bytes that did not come over the network as they are (an entry rebuilt
    /// from its delta), not in ``addedBytes``.
    func add(_ range: Range<UInt64>, counted: Bool = true) {
        Self.add(range, to: &received)
        if counted { addedBytes += UInt64(range.count) }
        unsaved += UInt64(range.count)
        if unsaved >= 256 << 10 { save() }
    }

    /// Forgets `range` (an entry whose bytes failed their check).
    func remove(_ range: Range<UInt64>) {
        received = received.flatMap { held -> [Range<UInt64>] in
            guard held.overlaps(range) else { return [held] }
            var parts: [Range<UInt64>] = []
            if held.lowerBound < range.lowerBound { parts.append(held.lowerBound..<range.lowerBound) }
            if held.upperBound > range.upperBound { parts.append(range.upperBound..<held.upperBound) }
            return parts
        }
        save()
    }

    /// The parts of `wanted` not fetched yet.
    func missing(_ wanted: [Range<UInt64>]) -> [Range<UInt64>] {
        var result: [Range<UInt64>] = []
        for range in wanted {
            var start = range.lowerBound
            for held in received where held.upperBound > start && held.lowerBound < range.upperBound {
                if held.lowerBound > start { result.append(start..<held.lowerBound) }
                start = max(start, held.upperBound)
            }
            if start < range.upperBound { result.append(start..<range.upperBound) }
        }
        return result
    }

    /// Writes the ranges fetched to `DEST.patch.json` (after their bytes: `fdatasync` first).
    func save() {
        unsaved = 0
        fdatasync(descriptor)
        let saved = Saved(version: version, received: received.map { [$0.lowerBound, $0.upperBound] })
        guard let data = try? JSONEncoder().encode(saved) else { return }
        try? AtomicFile.write([(statePath, Array(data))])
    }

    /// Removes the journal's two files (the patch landed, or is given up).
    func remove() {
        unlink(dataPath)
        unlink(statePath)
    }

    private static func add(_ range: Range<UInt64>, to ranges: inout [Range<UInt64>]) {
        guard !range.isEmpty else { return }
        var merged = range
        var kept: [Range<UInt64>] = []
        for held in ranges {
            if held.upperBound < merged.lowerBound || held.lowerBound > merged.upperBound {
                kept.append(held)
            } else {
                merged = min(held.lowerBound, merged.lowerBound)..<max(held.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        ranges = kept.sorted { $0.lowerBound < $1.lowerBound }
    }
}
