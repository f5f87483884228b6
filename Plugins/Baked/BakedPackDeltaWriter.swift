import Preload

/// Writes the deltas that update one version of a baked pack to another (``BakedPackDelta``;
/// what `preload patch OLD NEW -o DIR` does): each entry of the new pack whose bytes changed
/// under the same name is compressed with Zstandard against its old bytes (zstd's
/// `--patch-from`), and kept when the delta is smaller than the entry. The file goes in
/// `DIR/<new pack's file name>.deltas/`, named by the old pack's
/// ``BakedPackDelta/identity(ofPackHeader:)``, written beside and renamed (`AtomicFile`): a
/// server publishing `DIR` never serves half a file.
///
/// ```swift
/// import PreloadBaked
///
/// let written = try BakedPackDeltaWriter.write(old: "shipped/level1.bake", new: "build/level1.bake", into: "published")
/// print("\(written.path): \(written.entries) entries, \(written.deltaBytes) bytes instead of \(written.entryBytes)")
/// ```
public enum BakedPackDeltaWriter {
    /// What ``write(old:new:into:level:)`` wrote.
    public struct Written: Sendable, Equatable {
        /// The delta file.
        public let path: String
        /// Entries of the new pack that changed under their name (each had a delta made).
        public let changedEntries: Int
        /// Entries that come as deltas (their delta is smaller than the entry).
        public let entries: Int
        /// The bytes of those deltas.
        public let deltaBytes: UInt64
        /// The bytes of those entries: what fetching them would move instead.
        public let entryBytes: UInt64
        /// The delta file's length (its header and records too).
        public let fileBytes: UInt64
    }

    /// zstd's level for deltas by default: 19, its strongest without the extra memory of 20-22
    /// (a delta is made once, when a pack is published, and fetched by every player).
    public static let defaultLevel: Int32 = 19

    /// Writes the deltas from the pack at `old` to the pack at `new` into `folder`
    /// (`folder/<new's file name>.deltas/<old's identity>`), compressing at zstd `level`.
    /// - Throws: ``BakedDeltaError`` naming the file: a pack that cannot be read, is not a baked
    ///   pack or is damaged; a folder that cannot be written; libzstd missing.
    public static func write(old: String, new: String, into folder: String, level: Int32 = defaultLevel) throws(BakedDeltaError) -> Written {
        let (oldFile, oldIndex) = try open(old)
        let (newFile, newIndex) = try open(new)
        let zstd: ZstdLibrary
        do { zstd = try ZstdLibrary.get() } catch { throw .library(error) }
        var changed = 0
        var made: [(entry: BakedPackDelta.Entry, bytes: [UInt8])] = []
        let entries = newIndex.entries.sorted { $0.record.dataOffset < $1.record.dataOffset }
        for entry in entries where entry.record.dataLength > 0 {
            let record = entry.record
            guard let reference = oldIndex.entry(named: entry.name)?.record,
                reference.dataLength != record.dataLength || reference.dataChecksum != record.dataChecksum
            else { continue }
            changed += 1
            let delta: [UInt8]
            do {
                delta = try newFile.withUnsafeBytes(offset: Int(record.dataOffset), count: Int(record.dataLength)) { bytes in
                    try oldFile.withUnsafeBytes(offset: Int(reference.dataOffset), count: Int(reference.dataLength)) {
                        try zstd.compress(bytes, against: $0, level: level)
                    }
                }
            } catch {
                throw .entryDamaged(entry: entry.name, detail: "zstd cannot make its delta: \(error)")
            }
            guard UInt64(delta.count) < record.dataLength else { continue }
            let described = BakedPackDelta.Entry(
                name: entry.name, reference: entry.name, delta: 0..<UInt64(delta.count), length: record.dataLength, checksum: record.dataChecksum,
                referenceLength: reference.dataLength, referenceChecksum: reference.dataChecksum)
            made.append((described, delta))
        }
        // The outline's length does not depend on the offsets it holds: lay the deltas after it.
        let headers = (
            oldFile.withUnsafeBytes(offset: 0, count: BakedFormat.headerSize) { Array($0) },
            newFile.withUnsafeBytes(offset: 0, count: BakedFormat.headerSize) { Array($0) }
        )
        var offset = UInt64(BakedPackDelta(oldHeader: headers.0, newHeader: headers.1, entries: made.map(\.entry)).outline().count)
        var placed: [BakedPackDelta.Entry] = []
        for (entry, bytes) in made {
            placed.append(
                BakedPackDelta.Entry(
                    name: entry.name, reference: entry.reference, delta: offset..<offset + UInt64(bytes.count), length: entry.length,
                    checksum: entry.checksum, referenceLength: entry.referenceLength, referenceChecksum: entry.referenceChecksum))
            offset += UInt64(bytes.count)
        }
        let outline = BakedPackDelta(oldHeader: headers.0, newHeader: headers.1, entries: placed).outline()
        let path =
            (folder.hasSuffix("/") ? folder : folder + "/") + AssetPath.fileName(of: new) + ".deltas/"
            + BakedPackDelta.identity(ofPackHeader: headers.0)
        do {
            let file = try AtomicFile(path: path)
            try file.write(outline)
            for (_, bytes) in made { try file.write(bytes) }
            try file.commit()
        } catch {
            throw .cannotWrite("\(path): \(error)")
        }
        return Written(
            path: path, changedEntries: changed, entries: made.count, deltaBytes: made.reduce(0) { $0 + UInt64($1.bytes.count) },
            entryBytes: made.reduce(0) { $0 + $1.entry.length }, fileBytes: offset)
    }

    /// The pack at `path`, mapped, and its index, checked.
    private static func open(_ path: String) throws(BakedDeltaError) -> (FileMapping, BakedIndex) {
        let file: FileMapping
        do { file = try FileMapping(path: path) } catch { throw .cannotRead("\(path): \(error.reason)") }
        do {
            return (file, try file.withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) })
        } catch let error as BakedPackError {
            throw .pack(path, error)
        } catch {
            throw .pack(path, .malformed("\(error)"))
        }
    }
}
