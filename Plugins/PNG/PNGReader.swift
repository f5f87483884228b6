import CPreloadPNG
import Preload

/// The reader of one PNG file after its header: the fast path's plan of the decode
/// (``PNGFastPath``) when it takes the file, else libpng's reader after every chunk up to the
/// image data (nothing the size of a row allocated yet). What ``PNGDecoder`` decodes the rows
/// with; frees what it holds when released.
public final class PNGReader {
    /// The fast path's plan, when it takes the file.
    let fast: OpaquePointer?
    /// libpng's reader, when it reads the file.
    private(set) var libpng: OpaquePointer?
    /// The header: sides, output row bytes, bytes per sample; passes once ``start()`` set up
    /// libpng's transforms.
    private(set) var info: preload_png_info

    /// Reads `file`'s header (`file` must outlive the reader) with the decoder `path` asks for.
    /// The size it declares is the loader's to check (`ImageLimits.check(_:)`) before ``start()``.
    init(_ file: UnsafeBufferPointer<UInt8>, keepsSixteenBitSamples: Bool, path: PNGDecodePath) throws {
        if path != .libpngOnly {
            switch PNGFastPath.plan(file) {
            case .success(let (fast, info)):
                self.fast = fast
                self.info = info
                return
            case .failure(let declined) where path == .fastPathOnly: throw declined
            case .failure: break
            }
        }
        fast = nil
        info = preload_png_info()
        try openLibpng(file, keepsSixteenBitSamples: keepsSixteenBitSamples)
    }

    /// Reads `file`'s header with libpng: for a file the fast path took and then found not to
    /// inflate exactly, whose error (or warning) is libpng's to give.
    func openLibpng(_ file: UnsafeBufferPointer<UInt8>, keepsSixteenBitSamples: Bool) throws {
        guard let reader = preload_png_reader_create(file.baseAddress, file.count) else {
            throw PNGDecodeError.outOfMemory
        }
        libpng = reader
        var info = preload_png_info()
        let status = preload_png_read_header(reader, keepsSixteenBitSamples ? 1 : 0, &info)
        self.info = info
        try check(status)
    }

    /// Sets up libpng's output transforms and row buffers: after the size passed the limits.
    func start() throws {
        guard let libpng else { return }
        try check(preload_png_start(libpng, &info))
    }

    deinit {
        preload_png_fast_destroy(fast)
        preload_png_reader_destroy(libpng)
    }

    /// RGBA16 when 16-bit samples are kept, else RGBA8.
    var pixelFormat: PixelFormat { info.bytes_per_sample == 2 ? .rgba16 : .rgba8 }

    /// Throws the ``PNGDecodeError`` for a libpng status other than OK.
    func check(_ status: preload_png_status) throws {
        guard status != PRELOAD_PNG_OK else { return }
        let message = String(cString: preload_png_message(libpng))
        switch status {
        case PRELOAD_PNG_NOT_PNG: throw PNGDecodeError.notPNG
        case PRELOAD_PNG_TRUNCATED: throw PNGDecodeError.truncated(message)
        case PRELOAD_PNG_TOO_LARGE: throw PNGDecodeError.tooLarge(message)
        case PRELOAD_PNG_OUT_OF_MEMORY: throw PNGDecodeError.outOfMemory
        default: throw PNGDecodeError.corrupt(message.isEmpty ? "libpng status \(status.rawValue)" : message)
        }
    }
}
