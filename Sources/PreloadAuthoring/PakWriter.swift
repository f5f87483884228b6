import PreloadPack
import Dispatch
import Foundation
import Preload
import PreloadZlib

/// Writes `.pak` files: deterministic (entries sorted by name, no timestamps: the same input
/// gives the same bytes whatever the number of jobs), entries compressed in parallel, and the
/// whole file written to a temporary name and renamed at the end.
public enum PakWriter {
    /// One file to put in a pack.
    public struct Source: Sendable {
        /// The entry's name in the pack (`/` separators).
        public var name: String
        /// The file whose bytes it holds.
        public var path: String

        /// The file at `path`, stored as `name`.
        public init(name: String, path: String) {
            self.name = name
            self.path = path
        }
    }

    /// Every non-hidden file below `directory`, named by its path inside it, sorted by name bytes.
    /// Throws for anything there that cannot be packed (see `AssetFiles/files(under:)`).
    public static func sources(in directory: String) throws -> [Source] {
        try AssetFiles.local.files(under: directory).map { relative in
            let path = directory + "/" + relative
            guard PackEntryName.isValid(relative) else {
                throw AssetError(path: path, category: .unsupported, reason: "its name cannot be stored in a pack")
            }
            return Source(name: relative, path: path)
        }.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    /// Packs `sources` into `output` at zlib `level` (0 stores everything) on `jobs` threads.
    /// Entries that do not shrink are stored. Returns the index written.
    @discardableResult
    public static func write(_ sources: [Source], to output: String, level: Int = 6, jobs: Int = 1) throws -> PackIndex {
        let file = try AtomicFile(path: output)
        try file.write([UInt8](repeating: 0, count: PackFormat.headerSize))
        var entries: [PackIndex.Entry] = []
        var offset = UInt64(PackFormat.headerSize)
        // A window of entries is compressed in parallel, then written in order: memory stays
        // bounded by the window, and the output does not depend on which thread finished first.
        let window = max(jobs, 1) * 4
        var start = 0
        while start < sources.count {
            let batch = Array(sources[start..<min(start + window, sources.count)])
            for packed in try compress(batch, level: level, jobs: jobs) {
                try file.write(packed.stored)
                entries.append(
                    PackIndex.Entry(
                        name: packed.name, offset: offset, storedSize: UInt64(packed.stored.count), rawSize: packed.rawSize,
                        method: packed.compressed ? .zlib : .stored, crc32: packed.crc))
                offset += UInt64(packed.stored.count)
            }
            start += window
        }
        let index = PackFormat.encodeIndex(entries)
        try file.write(index)
        let header = PackFormat.Header(
            entryCount: UInt32(entries.count), indexOffset: offset, indexSize: UInt64(index.count), indexCRC: CRC32.checksum(index))
        try file.write(header.encoded(), at: 0)
        try file.commit()
        return PackIndex(format: .pak, entries: entries)
    }

    private struct Packed: Sendable {
        var name: String
        var stored: [UInt8]
        var rawSize: UInt64
        var crc: UInt32
        var compressed: Bool
    }

    private static func compress(_ batch: [Source], level: Int, jobs: Int) throws -> [Packed] {
        let results = Locked([Result<Packed, Error>?](repeating: nil, count: batch.count))
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: min(max(jobs, 1), batch.count)) { _ in
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < batch.count else { return }
                let result = Result<Packed, Error> {
                    let raw = try AssetFiles.local.read(batch[index].path).array
                    let crc = CRC32.checksum(raw)
                    let deflated = level > 0 ? try Zlib.compress(raw, level: level) : raw
                    let compressed = level > 0 && deflated.count < raw.count
                    return Packed(
                        name: batch[index].name, stored: compressed ? deflated : raw, rawSize: UInt64(raw.count), crc: crc, compressed: compressed)
                }
                results.withLock { $0[index] = result }
            }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }
}
