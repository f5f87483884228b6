import Preload

/// Writes a new version of a baked pack from the old pack's file and the byte ranges of the new
/// pack fetched for a ``BakedPackDiff``: each entry the diff takes from the old pack is copied
/// from the old file, each entry to fetch from the ranges, at its offset in the new pack.
///
/// Every byte is checked before the pack is put in place: the new header's and index's
/// checksums, every entry's CRC-32 against the new index (a fetched entry before anything is
/// written, an old one as it is copied), and the length of the whole. A failure throws a
/// ``BakedPatchError`` naming the entry, and nothing lands: the pack is written to a temporary
/// file beside the destination (`AtomicFile`) and renamed over it only once whole. The old
/// file is never written, so a game that has it mapped keeps reading its bytes; the
/// destination may be the old pack's own path.
///
/// ```swift
/// import Preload
/// import PreloadBaked
///
/// // The new pack as a server publishes it (a local file here, standing for HTTP Range requests).
/// let published = try FileMapping(path: "build/level1.bake")
/// let (header, index) = published.withUnsafeBytes { file in
///     let indexOffset = Int(UInt64(littleEndian: file.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
///     return (Array(file[0..<BakedFormat.headerSize]), Array(file[indexOffset...]))
/// }
/// let new = try header.withUnsafeBytes { head in
///     try index.withUnsafeBytes { try BakedIndex(header: head, index: $0, checksum: BakedChecksum.crc32) }
/// }
/// let old = try FileMapping(path: "level1.bake").withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
/// let diff = BakedPackDiff(old: old, new: new)
/// let fetched = published.withUnsafeBytes { file in
///     diff.requests.map { BakedPackPatch.Fetched(range: $0, bytes: Array(file[Int($0.lowerBound)..<Int($0.upperBound)])) }
/// }
/// try BakedPackPatch.apply(diff, header: header, index: index, old: "level1.bake", fetched: fetched, to: "level1.bake")
/// ```
public enum BakedPackPatch {
    /// A range of the new pack, as fetched (one of ``BakedPackDiff/requests``, or any range
    /// holding whole entries).
    public struct Fetched: Sendable {
        /// Where the bytes lie in the new pack.
        public let range: Range<UInt64>
        /// The bytes.
        public let bytes: [UInt8]

        /// The bytes `bytes`, fetched from `range` of the new pack.
        public init(range: Range<UInt64>, bytes: [UInt8]) {
            self.range = range
            self.bytes = bytes
        }
    }

    /// Writes the new pack at `destination`: its header (`header`, ``BakedFormat/headerSize``
    /// bytes) and index (`index`), the entries `diff` takes from the pack at `old`, and those
    /// it fetches from `fetched`. See the type's description for what is checked.
    public static func apply(
        _ diff: BakedPackDiff, header: [UInt8], index: [UInt8], old: String, fetched: [Fetched], to destination: String
    ) throws(BakedPatchError) {
        guard header.count == BakedFormat.headerSize else {
            throw .notTheDiffsPack("a header has \(BakedFormat.headerSize) bytes, \(header.count) were given")
        }
        let newIndex: BakedIndex
        do {
            newIndex = try header.withUnsafeBytes { head in
                try index.withUnsafeBytes { try BakedIndex(header: head, index: $0, checksum: BakedChecksum.crc32, wholeRecords: false) }
            }
        } catch let error as BakedPackError {
            throw .newPack(error)
        } catch {
            throw .newPack(.malformed("\(error)"))
        }
        try check(diff, against: newIndex)
        let sources = try locate(diff, in: fetched)
        let oldFile: FileMapping?
        do {
            oldFile = diff.pieces.contains { $0.old.map { !$0.isEmpty } ?? false } ? try FileMapping(path: old) : nil
        } catch {
            throw .oldPack("\(error)")
        }
        do {
            try write(diff, header: header, index: index, layout: newIndex.header, old: oldFile, sources: sources, fetched: fetched, to: destination)
        } catch let error as BakedPatchError {
            throw error
        } catch {
            throw .cannotWrite("\(error)")
        }
    }

    /// The header and index given describe the pack `diff` was made for: the same length and
    /// entries, each where and what the diff says.
    private static func check(_ diff: BakedPackDiff, against index: BakedIndex) throws(BakedPatchError) {
        guard index.header.fileLength == diff.packLength, index.entries.count == diff.pieces.count else {
            throw .notTheDiffsPack(
                "\(index.entries.count) entries in \(index.header.fileLength) bytes, the diff has \(diff.pieces.count) in \(diff.packLength)")
        }
        for piece in diff.pieces {
            guard let record = index.entry(named: piece.name)?.record,
                record.dataOffset == piece.target.lowerBound, record.dataLength == UInt64(piece.target.count), record.dataChecksum == piece.checksum
            else { throw .notTheDiffsPack("entry '\(piece.name)' differs") }
        }
    }

    /// For each entry to fetch, by its place in `diff.pieces`, its fetched range and where in it
    /// its bytes start; checks each entry's CRC-32 before anything is written.
    private static func locate(_ diff: BakedPackDiff, in fetched: [Fetched]) throws(BakedPatchError) -> [Int: (range: Int, start: Int)] {
        let ranges = fetched.indices.sorted { fetched[$0].range.lowerBound < fetched[$1].range.lowerBound }
        var found: [Int: (range: Int, start: Int)] = [:]
        for (position, piece) in diff.pieces.enumerated() where piece.old == nil {
            // The last range starting at or before the entry.
            var low = 0, high = ranges.count
            while low < high {
                let middle = (low + high) / 2
                if fetched[ranges[middle]].range.lowerBound <= piece.target.lowerBound { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { throw .missingBytes(entry: piece.name) }
            let holder = fetched[ranges[low - 1]]
            guard holder.range.upperBound >= piece.target.upperBound, UInt64(holder.bytes.count) == UInt64(holder.range.count) else {
                throw .missingBytes(entry: piece.name)
            }
            let start = Int(piece.target.lowerBound - holder.range.lowerBound)
            let crc = holder.bytes.withUnsafeBytes { BakedChecksum.crc32(UnsafeRawBufferPointer(rebasing: $0[start..<start + piece.target.count])) }
            guard crc == piece.checksum else { throw .entryDamaged(entry: piece.name, expected: piece.checksum, found: crc) }
            found[position] = (ranges[low - 1], start)
        }
        return found
    }

    /// Writes the pack to a temporary file beside `destination`, checking each old entry's
    /// CRC-32 as it is copied, and renames it over `destination` once whole.
    private static func write(
        _ diff: BakedPackDiff, header: [UInt8], index: [UInt8], layout: BakedFormat.Header, old: FileMapping?,
        sources: [Int: (range: Int, start: Int)], fetched: [Fetched], to destination: String
    ) throws {
        let file = try AtomicFile(path: destination)
        var offset = UInt64(header.count)
        try file.write(header)
        func pad(to target: UInt64) throws {
            if target > offset { try file.write([UInt8](repeating: 0, count: Int(target - offset))) }
            offset = max(offset, target)
        }
        for (position, piece) in diff.pieces.enumerated() where !piece.target.isEmpty {
            try pad(to: piece.target.lowerBound)
            if let source = piece.old {
                guard let old, source.upperBound <= UInt64(old.count) else { throw BakedPatchError.oldEntryChanged(entry: piece.name) }
                try old.withUnsafeBytes(offset: Int(source.lowerBound), count: source.count) { bytes in
                    guard BakedChecksum.crc32(bytes) == piece.checksum else { throw BakedPatchError.oldEntryChanged(entry: piece.name) }
                    try file.write(bytes)
                }
            } else if let (range, start) = sources[position] {
                try fetched[range].bytes.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[start..<start + piece.target.count])) }
            }
            offset = piece.target.upperBound
        }
        try pad(to: layout.indexOffset)
        try file.write(index)
        offset += UInt64(index.count)
        guard offset == layout.fileLength else {
            throw BakedPatchError.newPack(.malformed("the pack as written has \(offset) bytes, its header says \(layout.fileLength)"))
        }
        try file.commit()
    }
}
