import Preload
import PreloadZlib

/// Why a layer's tile data cannot be decoded, in words (the reader names the layer and file).
struct LayerDataProblem: Error {
    let detail: String
    init(_ detail: String) { self.detail = detail }
}

/// Layer data compression as Tiled writes it (`compression`): none, zlib, gzip or Zstandard.
/// Decompression never produces more than the layer needs: it writes into the layer's
/// `width * height * 4` bytes plus one, so a stream that would inflate further (a decompression
/// bomb) stops there and fails.
enum LayerCompression: String {
    case none = ""
    case zlib
    case gzip
    case zstd

    /// `input` decompressed into `output`, which must receive exactly `output.count - 1` bytes
    /// (the last byte is room to notice more).
    /// - Throws: ``LayerDataProblem`` for damaged data or data of another size;
    ///   ``MissingSystemLibrary`` for zstd data on a machine without libzstd.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        let expected = output.count - 1
        switch self {
        case .none:
            guard input.count == expected else {
                throw LayerDataProblem("the data is \(input.count) bytes, the layer's \(expected / 4) tiles need \(expected)")
            }
            output.copyMemory(from: input)
        case .zlib, .gzip: try Self.inflate(input, into: output, name: rawValue)
        case .zstd: try Self.decompressZstd(input, into: output)
        }
    }

    /// Zstandard data decompressed into `output` through libzstd (opened at run time, shared
    /// with the package's other zstd readers).
    private static func decompressZstd(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        let expected = output.count - 1
        let result: Int
        do {
            result = try ZstdLibrary.shared.get().decompress(input, into: output)
        } catch let failure as ZstdFailure {
            if failure.isDestinationTooSmall { throw LayerDataProblem("zstd data decompresses to more than the layer's \(expected) bytes") }
            throw LayerDataProblem(failure.description)
        }
        guard result == expected else {
            let size = result > expected ? "more than" : "\(result) bytes, not"
            throw LayerDataProblem("zstd data decompresses to \(size) the layer's \(expected) bytes")
        }
    }

    /// zlib or gzip data (told apart by their headers, as Tiled's reader does) inflated into
    /// `output`. Bytes after the end of the stream are ignored, as Tiled ignores them.
    private static func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, name: String) throws(LayerDataProblem) {
        let expected = output.count - 1
        guard input.count <= Int(UInt32.max), output.count <= Int(UInt32.max) else { throw LayerDataProblem("the \(name) data is too large") }
        let inflater: Inflater, produced: Int
        do {
            inflater = try Inflater(format: .zlibOrGzip)
        } catch {
            throw LayerDataProblem("zlib cannot start inflating")
        }
        do {
            produced = try inflater.inflate(input, into: output).produced
        } catch {
            throw LayerDataProblem("the \(name) data is damaged (\(error.detail ?? "zlib error \(error.code)"))")
        }
        if produced > expected { throw LayerDataProblem("the \(name) data inflates to more than the layer's \(expected) bytes") }
        guard inflater.isFinished else { throw LayerDataProblem("the \(name) data ends early (after \(produced) of \(expected) bytes)") }
        guard produced == expected else {
            throw LayerDataProblem("the \(name) data inflates to \(produced) bytes, the layer's \(expected / 4) tiles need \(expected)")
        }
    }
}
