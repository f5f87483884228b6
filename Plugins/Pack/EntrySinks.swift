#if canImport(Glibc)
    import Glibc
#endif
import Preload

/// A pack file held open: one entry's read (``StoredBytes``), or a run of entries loaded on the
/// bulk path (``PackLoader/loadEntries(_:)``: one `open` per run, not per entry).
final class OpenPackFile: Sendable {
    let descriptor: Int32
    let path: String

    init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AssetError(errno: errno, path: path) }
        self.path = path
    }

    deinit {
        close(descriptor)
    }
}

/// An entry's stored bytes, a chunk at a time, read with `pread` (its own descriptor unless it
/// is given one, so entries of one pack read in parallel).
final class StoredBytes {
    let file: OpenPackFile
    var descriptor: Int32 { file.descriptor }
    var path: String { file.path }
    let entry: PackIndex.Entry
    private(set) var consumed: UInt64 = 0
    /// Never zeroed: `pread` fills what is used (a zeroed megabyte per entry cost 1.5% of an
    /// inflate pass in page clearing and `memset`).
    private let chunk: UnsafeMutableRawBufferPointer

    init(file: OpenPackFile, entry: PackIndex.Entry, chunkSize: Int) {
        self.file = file
        self.entry = entry
        chunk = .allocate(byteCount: Int(min(UInt64(chunkSize), max(entry.storedSize, 1))), alignment: 16)
    }

    deinit {
        chunk.deallocate()
    }

    /// The next chunk, valid until the next call; nil at the end of the entry.
    func next(isCancelled: () -> Bool) throws -> UnsafeRawBufferPointer? {
        guard consumed < entry.storedSize else { return nil }
        if isCancelled() { throw CancellationError() }
        let wanted = Int(min(UInt64(chunk.count), entry.storedSize - consumed))
        let (position, overflow) = entry.offset.addingReportingOverflow(consumed)
        guard !overflow, position < UInt64(off_t.max) - UInt64(wanted) else {
            throw PackError.truncated("entry '\(entry.name)' ends past the end of the file")
        }
        var got = 0
        repeat {
            got = pread(descriptor, chunk.baseAddress, wanted, off_t(position))
        } while got < 0 && errno == EINTR
        guard got > 0 else {
            if got == 0 { throw PackError.truncated("entry '\(entry.name)' ends past the end of the file") }
            throw AssetError(errno: errno, path: path)
        }
        consumed += UInt64(got)
        return UnsafeRawBufferPointer(rebasing: chunk[0..<got])
    }
}

/// Where an entry's raw bytes go as they are made.
protocol EntrySink {
    var entry: PackIndex.Entry { get }
    /// Raw bytes so far.
    var count: Int { get }
    /// Whether more bytes are wanted (a prefix stops early).
    var wantsMore: Bool { get }
    /// Room for up to `atMost` more bytes; throws when the entry would grow past what it may.
    mutating func room(atMost: Int) throws -> UnsafeMutableRawBufferPointer
    /// Keeps the first `count` bytes written into the last room; returns them.
    mutating func commit(_ count: Int) throws -> UnsafeRawBufferPointer
}

/// Straight into the result, for an entry whose size is declared: the buffer holds one byte
/// more, and filling that byte proves the entry larger than declared.
struct FixedSink: EntrySink {
    let buffer: UnsafeMutableRawBufferPointer
    let entry: PackIndex.Entry
    private(set) var count = 0
    var wantsMore: Bool { true }

    init(buffer: UnsafeMutableRawBufferPointer, entry: PackIndex.Entry) {
        self.buffer = buffer
        self.entry = entry
    }

    func room(atMost: Int) throws -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: buffer[count..<count + min(atMost, buffer.count - count)])
    }

    mutating func commit(_ made: Int) throws -> UnsafeRawBufferPointer {
        let start = count
        count += made
        if let declared = entry.rawSize, UInt64(count) > declared {
            throw PackError.largerThanDeclared(entry: entry.name, declared: declared)
        }
        return UnsafeRawBufferPointer(rebasing: buffer[start..<count])
    }
}

/// Into a growing array through a scratch slice, for an entry of unknown size (gzip) or a prefix.
struct GrowingSink: EntrySink {
    let ceiling: Int
    let entry: PackIndex.Entry
    let isPrefix: Bool
    private(set) var bytes: [UInt8] = []
    private var scratch: UnsafeMutableRawBufferPointer
    private let scratchOwner: ScratchOwner

    init(ceiling: Int, entry: PackIndex.Entry, isPrefix: Bool, expected: UInt64) {
        self.ceiling = ceiling
        self.entry = entry
        self.isPrefix = isPrefix
        bytes.reserveCapacity(Int(min(expected, UInt64(ceiling))))
        scratchOwner = ScratchOwner(count: min(EntryReader.sliceSize, ceiling + 1))
        scratch = scratchOwner.buffer
    }

    var count: Int { bytes.count }
    var wantsMore: Bool { !isPrefix || bytes.count < ceiling }

    func room(atMost: Int) throws -> UnsafeMutableRawBufferPointer {
        // A prefix takes exactly what it wants; otherwise one byte past the ceiling proves it crossed.
        let allowed = isPrefix ? ceiling - bytes.count : ceiling + 1 - bytes.count
        return UnsafeMutableRawBufferPointer(rebasing: scratch[0..<max(0, min(atMost, allowed, scratch.count))])
    }

    mutating func commit(_ made: Int) throws -> UnsafeRawBufferPointer {
        let made = UnsafeRawBufferPointer(rebasing: scratch[0..<made])
        bytes.append(contentsOf: made)
        if bytes.count > ceiling { throw PackError.entryTooLarge(entry: entry.name, limit: ceiling) }
        return made
    }

    /// Frees the scratch slice when the sink goes.
    private final class ScratchOwner {
        let buffer: UnsafeMutableRawBufferPointer
        init(count: Int) { buffer = .allocate(byteCount: max(count, 1), alignment: 16) }
        deinit { buffer.deallocate() }
    }
}
