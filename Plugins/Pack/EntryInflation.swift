import Preload
import PreloadZlib

/// Inflating one entry's stored bytes, chunk by chunk, with the checks that belong to its
/// wrapper. A `.pak` zlib stream is inflated raw: its 2-byte header is checked and skipped, and
/// its Adler-32 trailer is only required to be there, because the CRC-32 the index records
/// already checks the same bytes (verifying both would cost a second pass for nothing). Zip
/// entries are raw deflate checked by their CRC-32; gzip members are checked by zlib itself
/// (CRC-32 and size in each trailer), and members that follow one another are read as one.
struct EntryInflation {
    let entry: PackIndex.Entry
    let limits: PackLimits
    private let inflater: Inflater
    /// Wrapper bytes still to skip before the deflate data (the zlib header).
    private var headerLeft: Int
    /// Bytes seen after the deflate data (the zlib trailer).
    private var trailer = 0

    /// `nil` for a stored entry.
    init?(entry: PackIndex.Entry, limits: PackLimits) throws {
        self.entry = entry
        self.limits = limits
        switch entry.method {
        case .stored: return nil
        case .zlib: (inflater, headerLeft) = (try Inflater(format: .raw), 2)
        case .deflate: (inflater, headerLeft) = (try Inflater(format: .raw), 0)
        case .gzip: (inflater, headerLeft) = (try Inflater(format: .gzip), 0)
        }
    }

    /// Inflates `input` (the next chunk) into `sink`, handing each run of new bytes to `made`.
    mutating func inflate(
        _ input: UnsafeRawBufferPointer, into sink: inout some EntrySink, storedSoFar: UInt64, made: (UnsafeRawBufferPointer) -> Void
    ) throws {
        var offset = try skipHeader(input)
        while sink.wantsMore {
            if inflater.isFinished {
                guard offset < input.count else { return }
                try afterStream(UnsafeRawBufferPointer(rebasing: input[offset...]))
                if inflater.isFinished { return }
            }
            // All the room the sink has: zlib copies its 32 KiB window out after every call that
            // does not finish the stream, so fewer, larger calls copy less.
            let room = try sink.room(atMost: .max)
            let used: Int, produced: Int
            do {
                (used, produced) = try inflater.inflate(UnsafeRawBufferPointer(rebasing: input[offset...]), into: room)
            } catch {
                throw failure(error.description)
            }
            offset += used
            if produced > 0 { made(try sink.commit(produced)) }
            if limits.ratioExceeded(raw: UInt64(sink.count), stored: storedSoFar) {
                throw PackError.ratioTooHigh(entry: entry.name, limit: limits.maxInflateRatio)
            }
            if offset == input.count, produced < room.count { return }  // wants more input
            if used == 0, produced == 0 { throw failure("the inflater made no progress") }
        }
    }

    /// Checks that the stream ended, with its trailer.
    func finish() throws {
        guard inflater.isFinished else { throw failure("the compressed data ends early") }
        if entry.method == .zlib, trailer != 4 { throw failure("the zlib stream's Adler-32 trailer is missing") }
    }

    /// Checks and skips what is left of the zlib header at the start of `input`; returns where
    /// the deflate data starts in it.
    private mutating func skipHeader(_ input: UnsafeRawBufferPointer) throws -> Int {
        guard headerLeft > 0 else { return 0 }
        guard input.count >= 2 else { throw failure("the zlib stream is too short") }
        let method = input[0], flags = input[1]
        guard method & 0x0F == 8, method >> 4 <= 7, (UInt16(method) << 8 | UInt16(flags)) % 31 == 0 else {
            throw failure("inflate: invalid compressed data (incorrect header check)")
        }
        guard flags & 0x20 == 0 else { throw failure("inflate: a preset dictionary is needed") }
        headerLeft = 0
        return 2
    }

    /// Bytes after the end of the deflate data: the zlib trailer, the next gzip member (or zero
    /// padding after the last one, as gunzip allows), or an error.
    private mutating func afterStream(_ rest: UnsafeRawBufferPointer) throws {
        switch entry.method {
        case .zlib:
            trailer += rest.count
            if trailer > 4 { throw failure("data follows the end of the compressed stream") }
        case .gzip:
            if !rest.allSatisfy({ $0 == 0 }) { try inflater.reset() }
        default:
            throw failure("data follows the end of the compressed stream")
        }
    }

    private func failure(_ detail: String) -> PackError {
        .inflateFailed(entry: entry.name, detail: detail)
    }
}
