#if canImport(Glibc)
    import Glibc
#endif
import Preload

/// Reads one entry's bytes out of a pack file: the stored bytes in chunks with `pread`, inflated
/// as they come, with cancellation checked between chunks, the CRC-32 computed on the way, and
/// the limits enforced while inflating; declared sizes are checked, never just trusted.
public enum EntryReader {
    /// Stored bytes read per step.
    static let chunkSize = 256 * 1024

    public static func read(
        _ entry: PackIndex.Entry, from path: String, limits: PackLimits = PackLimits(),
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in }
    ) throws -> [UInt8] {
        if let raw = entry.rawSize {
            guard raw <= UInt64(limits.maxEntryBytes) else { throw PackError.entryTooLarge(entry: entry.name, limit: limits.maxEntryBytes) }
            guard raw <= UInt64(limits.maxInflateRatio) * max(entry.storedSize, 1) || raw < 1 << 20 else {
                throw PackError.ratioTooHigh(entry: entry.name, limit: limits.maxInflateRatio)
            }
        }
        let file = try StoredBytes(path: path, entry: entry)
        let inflater: Inflater? = switch entry.method {
        case .stored: nil
        case .zlib: try Inflater(format: .zlib)
        case .deflate: try Inflater(format: .raw)
        case .gzip: try Inflater(format: .gzip)
        }
        var output = Output(entry: entry, limits: limits)
        while let input = try file.next(isCancelled: isCancelled) {
            try input.withUnsafeBytes { bytes in
                if let inflater {
                    try output.inflate(bytes, with: inflater, storedSoFar: file.consumed)
                } else {
                    try output.append(bytes)
                }
            }
            if let inflater, inflater.isFinished, file.consumed < entry.storedSize || output.pendingInput {
                if entry.method != .gzip {
                    throw PackError.inflateFailed(entry: entry.name, detail: "data follows the end of the compressed stream")
                }
            }
            progress(Double(file.consumed) / Double(max(entry.storedSize, 1)))
        }
        if let inflater, !inflater.isFinished {
            throw PackError.inflateFailed(entry: entry.name, detail: "the compressed data ends early")
        }
        return try output.finish()
    }

    /// The entry's stored bytes, a chunk at a time.
    private final class StoredBytes {
        let descriptor: Int32
        let path: String
        let entry: PackIndex.Entry
        private(set) var consumed: UInt64 = 0
        private var chunk: [UInt8]

        init(path: String, entry: PackIndex.Entry) throws {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw AssetError.fromErrno(errno, path: path) }
            self.path = path
            self.entry = entry
            chunk = [UInt8](repeating: 0, count: Int(min(UInt64(chunkSize), max(entry.storedSize, 1))))
        }

        deinit { close(descriptor) }

        func next(isCancelled: () -> Bool) throws -> ArraySlice<UInt8>? {
            guard consumed < entry.storedSize else { return nil }
            if isCancelled() { throw CancellationError() }
            let wanted = Int(min(UInt64(chunk.count), entry.storedSize - consumed))
            let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(entry.offset + consumed)) }
            guard got > 0 else {
                if got == 0 { throw PackError.truncated("entry '\(entry.name)' ends past the end of the file") }
                throw AssetError.fromErrno(errno, path: path)
            }
            consumed += UInt64(got)
            return chunk[0..<got]
        }
    }

    /// Where the raw bytes go, checked as they arrive.
    private struct Output {
        let entry: PackIndex.Entry
        let limits: PackLimits
        private var bytes: [UInt8] = []
        private var crc: UInt32 = 0
        /// Input left over after the stream ended, within the last chunk.
        private(set) var pendingInput = false

        init(entry: PackIndex.Entry, limits: PackLimits) {
            self.entry = entry
            self.limits = limits
            bytes.reserveCapacity(Int(entry.rawSize ?? min(entry.storedSize * 2, UInt64(limits.maxEntryBytes))))
        }

        /// The most bytes this entry may grow to: the declared size (one more is an error), else the limit.
        private var ceiling: Int { entry.rawSize.map { Int($0) } ?? limits.maxEntryBytes }

        mutating func append(_ input: UnsafeRawBufferPointer) throws {
            guard bytes.count + input.count <= ceiling else { throw overflow(by: input.count) }
            crc = Zlib.crc32(input, seed: crc)
            bytes.append(contentsOf: input)
        }

        mutating func inflate(_ input: UnsafeRawBufferPointer, with inflater: Inflater, storedSoFar: UInt64) throws {
            var offset = 0
            while !inflater.isFinished {
                // Inflate straight into the result's spare capacity, a slice at a time.
                let room = min(max(ceiling - bytes.count, 1), 1 << 20)
                let start = bytes.count
                var made = 0, used = 0
                try withUnsafeTemporaryAllocation(byteCount: room, alignment: 1) { scratch in
                    do {
                        (used, made) = try inflater.inflate(UnsafeRawBufferPointer(rebasing: input[offset...]), into: scratch)
                    } catch let error as ZlibError {
                        throw PackError.inflateFailed(entry: entry.name, detail: error.description)
                    }
                    guard start + made <= ceiling else { throw overflow(by: made) }
                    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<made]))
                }
                crc = bytes.withUnsafeBytes { Zlib.crc32(UnsafeRawBufferPointer(rebasing: $0[start...]), seed: crc) }
                offset += used
                if bytes.count > 1 << 20, UInt64(bytes.count) > UInt64(limits.maxInflateRatio) * max(storedSoFar, 1) {
                    throw PackError.ratioTooHigh(entry: entry.name, limit: limits.maxInflateRatio)
                }
                if used == 0 && made == 0 { break }  // needs more input
                if offset == input.count && made < room { break }
            }
            pendingInput = offset < input.count
        }

        private func overflow(by extra: Int) -> PackError {
            if let declared = entry.rawSize, bytes.count + extra > Int(declared), Int(declared) < limits.maxEntryBytes {
                return .sizeMismatch(entry: entry.name, declared: declared, actual: UInt64(bytes.count + extra))
            }
            return .entryTooLarge(entry: entry.name, limit: limits.maxEntryBytes)
        }

        func finish() throws -> [UInt8] {
            if let declared = entry.rawSize, declared != UInt64(bytes.count) {
                throw PackError.sizeMismatch(entry: entry.name, declared: declared, actual: UInt64(bytes.count))
            }
            if let expected = entry.crc32, expected != crc {
                throw PackError.checksumMismatch(entry: entry.name, expected: expected, actual: crc)
            }
            return bytes
        }
    }
}
