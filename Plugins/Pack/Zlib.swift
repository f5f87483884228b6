import CPreloadZlib

/// The parts of the system zlib packs need besides ``CRC32``: whole-buffer compression, and
/// streaming inflation (``Inflater``).
package enum Zlib {
    /// `bytes` as a zlib stream (RFC 1950) at `level` 0...9.
    package static func compress(_ bytes: [UInt8], level: Int) throws -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = bytes.withUnsafeBufferPointer { input in
            compress2(&output, &size, input.baseAddress, uLong(input.count), Int32(min(max(level, 0), 9)))
        }
        guard status == Z_OK else { throw ZlibError(code: status, operation: "compress") }
        output.removeSubrange(Int(size)...)
        return output
    }
}

/// A zlib status other than success, with zlib's name for it.
package struct ZlibError: Error, Sendable, CustomStringConvertible {
    package let code: Int32
    package let operation: String
    package let detail: String?

    package init(code: Int32, operation: String, detail: String? = nil) {
        self.code = code
        self.operation = operation
        self.detail = detail
    }

    package var description: String {
        let name =
            switch code {
            case Z_DATA_ERROR: "invalid compressed data"
            case Z_MEM_ERROR: "out of memory"
            case Z_BUF_ERROR: "compressed data ends early"
            case Z_STREAM_ERROR: "bad stream state"
            case Z_NEED_DICT: "a preset dictionary is needed"
            default: "zlib error \(code)"
            }
        return "\(operation): \(detail.map { "\(name) (\($0))" } ?? name)"
    }
}

/// Streaming inflation: feed compressed chunks, get raw bytes, one stream from start to end.
package final class Inflater {
    /// What wraps the deflate data.
    package enum Format: Sendable {
        /// RFC 1950: a 2-byte header and an Adler-32 trailer (pack entries).
        case zlib
        /// No wrapper (zip entries).
        case raw
        /// RFC 1952 (`.gz` files).
        case gzip

        var windowBits: Int32 {
            switch self {
            case .zlib: 15
            case .raw: -15
            case .gzip: 31
            }
        }
    }

    // zlib keeps a pointer back to its z_stream and refuses a moved one: it lives on the heap.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    package private(set) var isFinished = false

    package init(format: Format) throws {
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
    package func reset() throws {
        let status = inflateReset(stream)
        guard status == Z_OK else { throw ZlibError(code: status, operation: "inflate") }
        isFinished = false
    }

    /// Inflates from `input` into `output`; returns the bytes consumed and produced. Call again
    /// with the rest of the input and more output room until ``isFinished``.
    package func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> (consumed: Int, produced: Int) {
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
