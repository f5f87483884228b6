import Preload
import PreloadPack

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
        let newIndex = try check(diff, header: header, index: index)
        let sources = try locate(diff, in: fetched)
        try write(
            diff, header: header, index: index, layout: newIndex.header, old: old, fetched: FetchedBytes.memory(fetched, sources), to: destination)
    }

    /// Writes the new pack at `destination` as ``apply(_:header:index:old:fetched:to:)`` does,
    /// the entries to fetch read from the file at `fetchedFile`, which holds them at their
    /// offsets in the new pack (a sparse file of its length, as an updater keeps what it fetched):
    /// each is read once to check its CRC-32 before anything is written, then copied as the
    /// entries taken from the old pack are: by the kernel (`copy_file_range`) where the file
    /// system shares blocks (`FileRangeCopy.sharesBlocks`), else through a 1 MiB buffer.
    public static func apply(
        _ diff: BakedPackDiff, header: [UInt8], index: [UInt8], old: String, fetchedFile: String, to destination: String
    ) throws(BakedPatchError) {
        let newIndex = try check(diff, header: header, index: index)
        let descriptor = open(fetchedFile, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotWrite("cannot open the fetched bytes, \(fetchedFile): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try checkFetched(diff, in: descriptor)
        try write(diff, header: header, index: index, layout: newIndex.header, old: old, fetched: FetchedBytes.file(descriptor), to: destination)
    }

    /// Where the entries to fetch are: in memory (each one's range among the fetched ones and
    /// where in it its bytes start, by its place in the diff's pieces), or at their offsets in
    /// an open file.
    private enum FetchedBytes {
        case memory([Fetched], [Int: (range: Int, start: Int)])
        case file(Int32)
    }

    /// The new pack's index, from `header` and `index`, checked against `diff`.
    private static func check(_ diff: BakedPackDiff, header: [UInt8], index: [UInt8]) throws(BakedPatchError) -> BakedIndex {
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
        return newIndex
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

    /// Checks each entry to fetch against its CRC-32, read from its offset in the file open as
    /// `descriptor`, before anything is written.
    private static func checkFetched(_ diff: BakedPackDiff, in descriptor: Int32) throws(BakedPatchError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: checkBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        for piece in diff.pieces where piece.old == nil && !piece.target.isEmpty {
            guard let crc = try? copy(piece.target, of: descriptor, to: nil, through: buffer) else { throw .missingBytes(entry: piece.name) }
            guard crc == piece.checksum else { throw .entryDamaged(entry: piece.name, expected: piece.checksum, found: crc) }
        }
    }

    /// The bytes read at a time to check a CRC-32 (the memory a patch needs, whatever the pack's size).
    private static let checkBufferSize = 1 << 20

    /// CRC-32 of `range` of the file open as `descriptor`, read through `buffer` once, and
    /// appended to `file` as it is read when one is given; `nil` if the file ends first or
    /// cannot be read.
    private static func copy(
        _ range: Range<UInt64>, of descriptor: Int32, to file: AtomicFile?, through buffer: UnsafeMutableRawBufferPointer
    ) throws -> UInt32? {
        var crc: UInt32 = 0
        var at = range.lowerBound
        while at < range.upperBound {
            let count = pread(descriptor, buffer.baseAddress!, Int(min(UInt64(buffer.count), range.upperBound - at)), off_t(at))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            crc = CRC32.checksum(bytes, seed: crc)
            try file?.write(bytes)
            at += UInt64(count)
        }
        return crc
    }

    /// Writes the pack to a temporary file beside `destination` and renames it over
    /// `destination` once whole: each old entry read once through a 1 MiB buffer, its CRC-32
    /// checked as it is written (or, where the file system shares blocks, checked, then copied by
    /// the kernel: no data moves), each fetched one copied from `fetched` (checked already).
    private static func write(
        _ diff: BakedPackDiff, header: [UInt8], index: [UInt8], layout: BakedFormat.Header, old: String, fetched: FetchedBytes,
        to destination: String
    ) throws(BakedPatchError) {
        var oldDescriptor: Int32 = -1
        if diff.pieces.contains(where: { $0.old.map { !$0.isEmpty } ?? false }) {
            oldDescriptor = open(old, O_RDONLY | O_CLOEXEC)
            guard oldDescriptor >= 0 else { throw .oldPack("cannot open \(old): \(String(cString: strerror(errno)))") }
        }
        defer { if oldDescriptor >= 0 { close(oldDescriptor) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: checkBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        do {
            try write(diff, header: header, index: index, layout: layout, old: oldDescriptor, buffer: buffer, fetched: fetched, to: destination)
        } catch let error as BakedPatchError {
            throw error
        } catch {
            throw .cannotWrite("\(error)")
        }
    }

    private static func write(
        _ diff: BakedPackDiff, header: [UInt8], index: [UInt8], layout: BakedFormat.Header, old: Int32, buffer: UnsafeMutableRawBufferPointer,
        fetched: FetchedBytes, to destination: String
    ) throws {
        let file = try AtomicFile(path: destination)
        let sharesBlocks = old >= 0 && FileRangeCopy.sharesBlocks(old)
        var offset = UInt64(header.count)
        try file.write(header)
        func pad(to target: UInt64) throws {
            if target > offset { try file.write([UInt8](repeating: 0, count: Int(target - offset))) }
            offset = max(offset, target)
        }
        for (position, piece) in diff.pieces.enumerated() where !piece.target.isEmpty {
            try pad(to: piece.target.lowerBound)
            if let source = piece.old {
                if sharesBlocks {  // no data moves: the check is the only read
                    guard try copy(source, of: old, to: nil, through: buffer) == piece.checksum else {
                        throw BakedPatchError.oldEntryChanged(entry: piece.name)
                    }
                    try file.append(from: old, at: source.lowerBound, count: source.count)
                } else {  // one read: each piece checked and written
                    // Written before the check ends: a failure drops the file, never renamed.
                    let crc = try copy(source, of: old, to: file, through: buffer)
                    guard crc == piece.checksum else { throw BakedPatchError.oldEntryChanged(entry: piece.name) }
                }
            } else {
                switch fetched {
                case .memory(let ranges, let sources):
                    guard let found = sources[position] else { throw BakedPatchError.missingBytes(entry: piece.name) }
                    let end = found.start + piece.target.count
                    try ranges[found.range].bytes.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[found.start..<end])) }
                case .file(let descriptor) where sharesBlocks:
                    try file.append(from: descriptor, at: piece.target.lowerBound, count: piece.target.count)
                case .file(let descriptor):
                    guard try copy(piece.target, of: descriptor, to: file, through: buffer) == piece.checksum else {
                        throw BakedPatchError.missingBytes(entry: piece.name)  // checked a moment ago: the file changed since
                    }
                }
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
