import CPreloadZlib
import Preload

/// Why a layer's tile data cannot be decoded, in words (the reader names the layer and file).
struct LayerDataProblem: Error {
    let detail: String
    init(_ detail: String) { self.detail = detail }
}

/// Layer data compression as Tiled writes it (`compression`): none, zlib, gzip or Zstandard.
/// Decompression never produces more than the layer needs: the output buffer holds the layer's
/// `width * height * 4` bytes plus one, so a stream that would inflate further (a decompression
/// bomb) stops there and fails.
enum LayerCompression: String {
    case none = ""
    case zlib
    case gzip
    case zstd

    /// `input` decompressed into exactly `expected` bytes.
    /// - Throws: ``LayerDataProblem`` for damaged data or data of another size;
    ///   ``MissingSystemLibrary`` for zstd data on a machine without libzstd.
    func decompress(_ input: [UInt8], expected: Int) throws -> [UInt8] {
        switch self {
        case .none:
            guard input.count == expected else {
                throw LayerDataProblem("the data is \(input.count) bytes, the layer's \(expected / 4) tiles need \(expected)")
            }
            return input
        case .zlib, .gzip: return try Self.inflate(input, expected: expected, name: rawValue)
        case .zstd: return try ZstdLibrary.shared.get().decompress(input, expected: expected)
        }
    }

    /// zlib or gzip data (told apart by their headers, as Tiled's reader does) inflated into
    /// exactly `expected` bytes. Bytes after the end of the stream are ignored, as Tiled ignores them.
    private static func inflate(_ input: [UInt8], expected: Int, name: String) throws(LayerDataProblem) -> [UInt8] {
        guard input.count <= Int(UInt32.max), expected < Int(UInt32.max) else { throw LayerDataProblem("the \(name) data is too large") }
        // zlib keeps a pointer back to its stream and refuses a moved one: it lives on the heap.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        guard inflateInit2_(stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw LayerDataProblem("zlib cannot start inflating")
        }
        defer { inflateEnd(stream) }
        var output = [UInt8](repeating: 0, count: expected + 1)
        let (status, produced) = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = uInt(out.count)
                let status = CPreloadZlib.inflate(stream, Z_FINISH)
                return (status, out.count - Int(stream.pointee.avail_out))
            }
        }
        if produced > expected { throw LayerDataProblem("the \(name) data inflates to more than the layer's \(expected) bytes") }
        switch status {
        case Z_STREAM_END: break
        case Z_BUF_ERROR, Z_OK: throw LayerDataProblem("the \(name) data ends early (after \(produced) of \(expected) bytes)")
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            throw LayerDataProblem("the \(name) data is damaged (\(message))")
        }
        guard produced == expected else {
            throw LayerDataProblem("the \(name) data inflates to \(produced) bytes, the layer's \(expected / 4) tiles need \(expected)")
        }
        output.removeLast()
        return output
    }
}
