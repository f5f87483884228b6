import CPreloadPNG
import Preload

/// libpng's reader of one file, after it read every chunk up to the image data (nothing the
/// size of a row allocated yet): what ``PNGDecoder`` decodes the rows with. Frees libpng's
/// structures when released.
public final class PNGReader {
    let pointer: OpaquePointer
    /// The header as libpng reads it: sides, output row bytes, bytes per sample; passes once
    /// ``start()`` set up the transforms.
    private(set) var info: preload_png_info

    /// Reads `file`'s header (`file` must outlive the reader). The size it declares is the
    /// loader's to check (`ImageLimits.check(_:)`) before ``start()``.
    init(_ file: UnsafeBufferPointer<UInt8>, keepsSixteenBitSamples: Bool) throws {
        guard let reader = preload_png_reader_create(file.baseAddress, file.count) else {
            throw PNGDecodeError.outOfMemory
        }
        pointer = reader
        var info = preload_png_info()
        let status = preload_png_read_header(reader, keepsSixteenBitSamples ? 1 : 0, &info)
        self.info = info
        try check(status)
    }

    /// Sets up the output transforms and libpng's row buffers: after the size passed the limits.
    func start() throws {
        try check(preload_png_start(pointer, &info))
    }

    deinit { preload_png_reader_destroy(pointer) }

    /// RGBA16 when 16-bit samples are kept, else RGBA8.
    var pixelFormat: PixelFormat { info.bytes_per_sample == 2 ? .rgba16 : .rgba8 }

    /// Throws the ``PNGDecodeError`` for a libpng status other than OK.
    func check(_ status: preload_png_status) throws {
        guard status != PRELOAD_PNG_OK else { return }
        let message = String(cString: preload_png_message(pointer))
        switch status {
        case PRELOAD_PNG_NOT_PNG: throw PNGDecodeError.notPNG
        case PRELOAD_PNG_TRUNCATED: throw PNGDecodeError.truncated(message)
        case PRELOAD_PNG_TOO_LARGE: throw PNGDecodeError.tooLarge(message)
        case PRELOAD_PNG_OUT_OF_MEMORY: throw PNGDecodeError.outOfMemory
        default: throw PNGDecodeError.corrupt(message.isEmpty ? "libpng status \(status.rawValue)" : message)
        }
    }
}
