import Preload

/// Reads one entry's bytes out of a pack file: the stored bytes in chunks with `pread`, inflated
/// as they come (into the result itself when the size is declared), with cancellation checked
/// between chunks, the CRC-32 computed on each slice while it is still in cache, and the limits
/// enforced while inflating. Declared sizes are checked, never just trusted.
public enum EntryReader {
    /// Stored bytes read per step.
    static let chunkSize = 256 * 1024
    /// Raw bytes made per inflate call: small enough for the CRC pass to find them in cache.
    static let sliceSize = 128 * 1024

    /// The entry's raw bytes, verified.
    public static func read(
        _ entry: PackIndex.Entry, from path: String, limits: PackLimits = PackLimits(),
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in }
    ) throws -> [UInt8] {
        if let problem = entry.problem { throw problem }
        if let raw = entry.rawSize {
            guard raw <= UInt64(limits.maxEntryBytes) else { throw PackError.entryTooLarge(entry: entry.name, limit: limits.maxEntryBytes) }
            guard !limits.ratioExceeded(raw: raw, stored: entry.storedSize) else {
                throw PackError.ratioTooHigh(entry: entry.name, limit: limits.maxInflateRatio)
            }
            var crc: UInt32 = 0
            // One byte of room past the declared size, to catch an entry that inflates to more.
            let bytes = try [UInt8](unsafeUninitializedCapacity: Int(raw) + 1) { buffer, count in
                var sink = FixedSink(buffer: UnsafeMutableRawBufferPointer(buffer), entry: entry)
                crc = try pump(entry, from: path, limits: limits, into: &sink, isCancelled: isCancelled, progress: progress)
                count = sink.count
            }
            try verify(entry, count: bytes.count, crc: crc)
            return bytes
        }
        var sink = GrowingSink(ceiling: limits.maxEntryBytes, entry: entry, isPrefix: false, expected: entry.storedSize * 3)
        let crc = try pump(entry, from: path, limits: limits, into: &sink, isCancelled: isCancelled, progress: progress)
        try verify(entry, count: sink.bytes.count, crc: crc)
        return sink.bytes
    }

    /// The entry's first `count` raw bytes (fewer if it is shorter), inflating no more than that
    /// takes; unverified, for sniffing what the entry holds.
    public static func prefix(_ entry: PackIndex.Entry, from path: String, count: Int) throws -> [UInt8] {
        if let problem = entry.problem { throw problem }
        var sink = GrowingSink(ceiling: count, entry: entry, isPrefix: true, expected: UInt64(count))
        _ = try pump(entry, from: path, limits: PackLimits(maxEntryBytes: count), into: &sink, isCancelled: { false }, progress: { _ in })
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

    /// Moves the entry's bytes from the file into `sink`; returns their CRC-32.
    private static func pump(
        _ entry: PackIndex.Entry, from path: String, limits: PackLimits, into sink: inout some EntrySink,
        isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> UInt32 {
        let source = try StoredBytes(path: path, entry: entry)
        let inflater: Inflater? = switch entry.method {
        case .stored: nil
        case .zlib: try Inflater(format: .zlib)
        case .deflate: try Inflater(format: .raw)
        case .gzip: try Inflater(format: .gzip)
        }
        var crc: UInt32 = 0
        while sink.wantsMore, let chunk = try source.next(isCancelled: isCancelled) {
            try chunk.withUnsafeBytes { input in
                if let inflater {
                    try inflate(input, with: inflater, into: &sink, crc: &crc, limits: limits, storedSoFar: source.consumed)
                } else {
                    var offset = 0
                    while offset < input.count, sink.wantsMore {
                        let room = try sink.room(atMost: input.count - offset)
                        room.copyMemory(from: UnsafeRawBufferPointer(rebasing: input[offset..<offset + room.count]))
                        crc = Zlib.crc32(try sink.commit(room.count), seed: crc)
                        offset += room.count
                    }
                }
            }
            progress(Double(source.consumed) / Double(max(entry.storedSize, 1)))
        }
        if let inflater, !inflater.isFinished, sink.wantsMore {
            throw PackError.inflateFailed(entry: entry.name, detail: "the compressed data ends early")
        }
        return crc
    }

    /// Inflates one chunk of stored bytes into `sink`, a slice at a time.
    private static func inflate(
        _ input: UnsafeRawBufferPointer, with inflater: Inflater, into sink: inout some EntrySink, crc: inout UInt32,
        limits: PackLimits, storedSoFar: UInt64
    ) throws {
        let entry = sink.entry
        var offset = 0
        while sink.wantsMore {
            if inflater.isFinished {
                guard offset < input.count else { return }
                guard entry.method == .gzip else {
                    throw PackError.inflateFailed(entry: entry.name, detail: "data follows the end of the compressed stream")
                }
                // Another gzip member follows, or zero padding after the last one (as gunzip allows).
                if input[offset...].allSatisfy({ $0 == 0 }) { return }
                try inflater.reset()
            }
            let room = try sink.room(atMost: sliceSize)
            let used: Int, made: Int
            do {
                (used, made) = try inflater.inflate(UnsafeRawBufferPointer(rebasing: input[offset...]), into: room)
            } catch let error as ZlibError {
                throw PackError.inflateFailed(entry: entry.name, detail: error.description)
            }
            offset += used
            if made > 0 { crc = Zlib.crc32(try sink.commit(made), seed: crc) }
            if limits.ratioExceeded(raw: UInt64(sink.count), stored: storedSoFar) {
                throw PackError.ratioTooHigh(entry: entry.name, limit: limits.maxInflateRatio)
            }
            if offset == input.count, made < room.count { return }  // wants more input
            if used == 0, made == 0 { throw PackError.inflateFailed(entry: entry.name, detail: "the inflater made no progress") }
        }
    }
}
