import Preload

/// Reads one entry's bytes out of a pack file: the stored bytes in chunks with `pread`, inflated
/// as they come (into the result itself when the size is declared), with cancellation checked
/// between chunks, the CRC-32 computed on each slice while it is still in cache, and the limits
/// enforced while inflating. Declared sizes are checked, never just trusted. Entries come from
/// ``PackIndexReader/index(at:)``.
public enum EntryReader {
    /// Stored bytes read per step: cancellation is checked and progress reported this often.
    static let chunkSize = 1 << 20
    /// Stored bytes read per step for a prefix: a few hundred raw bytes rarely need more.
    static let prefixChunkSize = 4096
    /// Raw bytes an entry of unknown size grows by per inflate call.
    static let sliceSize = 128 * 1024

    /// The entry's raw bytes, verified; in pooled memory from `memory` when large. Throws
    /// ``PackError`` for a damaged entry or one past `limits`, and `CancellationError` once
    /// `isCancelled` says so; `progress` hears the fraction of the stored bytes read so far.
    public static func read(
        _ entry: PackIndex.Entry, from path: String, limits: PackLimits = PackLimits(), memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in }
    ) throws -> AssetBytes {
        if let problem = entry.problem { throw problem }
        return try read(entry, from: try OpenPackFile(path: path), limits: limits, memory: memory, isCancelled: isCancelled, progress: progress)
    }

    /// ``read(_:from:limits:memory:isCancelled:progress:)`` from a pack already open (a run of
    /// entries on the bulk path).
    static func read(
        _ entry: PackIndex.Entry, from file: OpenPackFile, limits: PackLimits, memory: AssetMemory, isCancelled: () -> Bool,
        progress: (Double) -> Void
    ) throws -> AssetBytes {
        if let problem = entry.problem { throw problem }
        if let raw = entry.rawSize {
            guard raw <= UInt64(limits.entryCeiling) else { throw PackError.entryTooLarge(entry: entry.name, limit: limits.entryCeiling) }
            guard !limits.ratioExceeded(raw: raw, stored: entry.storedSize) else {
                throw PackError.ratioTooHigh(entry: entry.name, limit: limits.maxInflateRatio)
            }
            var crc: UInt32 = 0
            // One byte of room past the declared size, to catch an entry that inflates to more.
            let bytes = try AssetBytes(unsafeUninitializedCapacity: Int(raw) + 1, memory: memory) { buffer, count in
                var sink = FixedSink(buffer: buffer, entry: entry)
                crc = try pump(entry, from: file, limits: limits, into: &sink, isCancelled: isCancelled, progress: progress)
                count = sink.count
            }
            try verify(entry, count: bytes.count, crc: crc)
            return bytes
        }
        let expected = entry.storedSize.multipliedReportingOverflow(by: 3)
        var sink = GrowingSink(
            ceiling: limits.entryCeiling, entry: entry, isPrefix: false, expected: expected.overflow ? .max : expected.partialValue)
        let crc = try pump(entry, from: file, limits: limits, into: &sink, isCancelled: isCancelled, progress: progress)
        try verify(entry, count: sink.bytes.count, crc: crc)
        return AssetBytes(sink.bytes)
    }

    /// The entry's first `count` raw bytes (fewer if it is shorter), inflating no more than that
    /// takes; unverified, for sniffing what the entry holds.
    public static func prefix(_ entry: PackIndex.Entry, from path: String, count: Int) throws -> [UInt8] {
        if let problem = entry.problem { throw problem }
        return try prefix(entry, from: try OpenPackFile(path: path), count: count)
    }

    /// ``prefix(_:from:count:)`` from a pack already open.
    static func prefix(_ entry: PackIndex.Entry, from file: OpenPackFile, count: Int) throws -> [UInt8] {
        if let problem = entry.problem { throw problem }
        var sink = GrowingSink(ceiling: count, entry: entry, isPrefix: true, expected: UInt64(count))
        _ = try pump(
            entry, from: file, limits: PackLimits(maxEntryBytes: count), chunkSize: prefixChunkSize, into: &sink,
            isCancelled: { false }, progress: { _ in })
        return sink.bytes
    }

    private static func verify(_ entry: PackIndex.Entry, count: Int, crc: UInt32) throws {
        if let declared = entry.rawSize, declared != UInt64(count) {
            throw PackError.sizeMismatch(entry: entry.name, declared: declared, actual: UInt64(count))
        }
        if let expected = entry.crc32, expected != crc {
            throw PackError.checksumMismatch(entry: entry.name, expected: expected, actual: crc)
        }
    }

    /// Moves the entry's bytes from the file into `sink`; returns their CRC-32 (0 when the entry
    /// records none to check).
    private static func pump(
        _ entry: PackIndex.Entry, from file: OpenPackFile, limits: PackLimits, chunkSize: Int = chunkSize, into sink: inout some EntrySink,
        isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> UInt32 {
        let source = StoredBytes(file: file, entry: entry, chunkSize: chunkSize)
        var inflation = try EntryInflation(entry: entry, limits: limits)
        var crc: UInt32 = 0
        let checksCRC = entry.crc32 != nil
        while sink.wantsMore, let input = try source.next(isCancelled: isCancelled) {
            if inflation != nil {
                try inflation!.inflate(input, into: &sink, storedSoFar: source.consumed) { made in
                    if checksCRC { crc = CRC32.checksum(made, seed: crc) }
                }
            } else {
                var offset = 0
                while offset < input.count, sink.wantsMore {
                    let room = try sink.room(atMost: input.count - offset)
                    room.copyMemory(from: UnsafeRawBufferPointer(rebasing: input[offset..<offset + room.count]))
                    let made = try sink.commit(room.count)
                    if checksCRC { crc = CRC32.checksum(made, seed: crc) }
                    offset += room.count
                }
            }
            progress(Double(source.consumed) / Double(max(entry.storedSize, 1)))
        }
        if sink.wantsMore { try inflation?.finish() }
        return crc
    }
}
