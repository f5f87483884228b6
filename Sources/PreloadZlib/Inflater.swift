import CPreloadZlib

/// Streaming inflation over the system zlib: feed compressed bytes, get raw bytes, one stream
/// from start to end. The package's one inflate: packs (`.pak` entries, zip entries, gzip files)
/// and Tiled's zlib and gzip layers use it, and so can a third party's plugin.
///
/// ```swift
/// import PreloadZlib
///
/// let packed = try Zlib.compress(Array("hello, hello, hello".utf8), level: 9)
/// var raw = [UInt8](repeating: 0, count: 19)
/// let inflater = try Inflater(format: .zlib)
/// let (_, produced) = try packed.withUnsafeBytes { input in
///     try raw.withUnsafeMutableBytes { try inflater.inflate(input, into: $0) }
/// }
/// print(produced, inflater.isFinished, String(decoding: raw, as: UTF8.self))
/// ```
public final class Inflater {
    /// What wraps the deflate data.
    public enum Format: Sendable {
        /// RFC 1950: a 2-byte header and an Adler-32 trailer.
        case zlib
        /// No wrapper (zip entries).
        case raw
        /// RFC 1952 (`.gz` files).
        case gzip
        /// zlib or gzip, told apart by the header (as Tiled's layers are read).
        case zlibOrGzip

        var windowBits: Int32 {
            switch self {
            case .zlib: 15
            case .raw: -15
            case .gzip: 31
            case .zlibOrGzip: 47
            }
        }
    }

    // zlib keeps a pointer back to its z_stream and refuses a moved one: it lives on the heap.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    /// Whether the stream's end was reached (its trailer checked, for zlib and gzip).
    public private(set) var isFinished = false

    /// An inflater for one stream of `format`.
    /// - Throws: ``ZlibError`` when zlib cannot start (out of memory).
    public init(format: Format) throws(ZlibError) {
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, format.windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw ZlibError(code: status, operation: "inflate")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Starts over for a new stream of the same format (the next member of a gzip file).
    /// - Throws: ``ZlibError`` when zlib refuses.
    public func reset() throws(ZlibError) {
        let status = inflateReset(stream)
        guard status == Z_OK else { throw ZlibError(code: status, operation: "inflate") }
        isFinished = false
    }

    /// Inflates from `input` into `output`; returns the bytes consumed and produced. Call again
    /// with the rest of the input and more output room until ``isFinished``; a call that
    /// returns with output room left and not finished has used all its input.
    /// - Throws: ``ZlibError`` for damaged data (its ``ZlibError/detail`` is zlib's message).
    public func inflate(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(ZlibError) -> (
        consumed: Int, produced: Int
    ) {
        guard !isFinished else { return (0, 0) }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let status = CPreloadZlib.inflate(stream, Z_NO_FLUSH)
        let consumed = input.count - Int(stream.pointee.avail_in), produced = output.count - Int(stream.pointee.avail_out)
        switch status {
        case Z_STREAM_END: isFinished = true
        case Z_OK: break
        case Z_BUF_ERROR: break  // no progress possible now: the caller gives more input or output, or finds the data ended early
        default:
            let message = stream.pointee.msg.map { String(cString: $0) }
            throw ZlibError(code: status, operation: "inflate", detail: message)
        }
        return (consumed, produced)
    }
}
