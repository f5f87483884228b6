import CPreloadZlib

/// Whole-buffer zlib compression (what a pack writer needs beside ``Inflater``) and decompression
/// (``decompress(_:into:)``, through libdeflate where the system has it), and zlib's CRC-32.
public enum Zlib {
    /// zlib's CRC-32 of `bytes`, continuing from `seed` (0 to start). `PreloadPack`'s `CRC32`
    /// is faster on long runs (carry-less multiplication) and ends with this one.
    public static func crc32(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return seed }
        var crc = uLong(seed)
        var offset = 0
        while offset < bytes.count {  // zlib takes 32-bit lengths
            let length = min(bytes.count - offset, Int(Int32.max))
            crc = CPreloadZlib.crc32(crc, base.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(length))
            offset += length
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// `bytes` as a zlib stream (RFC 1950) at `level` 0...9 (clamped).
    /// - Throws: ``ZlibError`` when zlib refuses (out of memory).
    public static func compress(_ bytes: [UInt8], level: Int) throws(ZlibError) -> [UInt8] {
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
public struct ZlibError: Error, Sendable, Equatable, CustomStringConvertible {
    /// zlib's status code (`Z_DATA_ERROR`, ...), or ``outputFull``.
    public let code: Int32
    /// What was being done ("inflate", "compress").
    public let operation: String
    /// zlib's own message, when it gave one ("incorrect header check").
    public let detail: String?

    /// zlib's `code` while doing `operation`, with its message `detail`.
    public init(code: Int32, operation: String, detail: String? = nil) {
        self.code = code
        self.operation = operation
        self.detail = detail
    }

    /// The ``code`` of a stream that inflates past the room ``Zlib/decompress(_:into:)`` was
    /// given (a lying size, a zlib bomb); not one of zlib's codes.
    public static let outputFull: Int32 = -100

    public var description: String {
        let name =
            switch code {
            case Z_DATA_ERROR: "invalid compressed data"
            case Z_MEM_ERROR: "out of memory"
            case Z_BUF_ERROR: "compressed data ends early"
            case Z_STREAM_ERROR: "bad stream state"
            case Z_NEED_DICT: "a preset dictionary is needed"
            case Self.outputFull: "the data inflates past the room given"
            default: "zlib error \(code)"
            }
        return "\(operation): \(detail.map { "\(name) (\($0))" } ?? name)"
    }
}
