import CPreloadJPEG
import Preload

/// libjpeg's reader of one file, after it read the headers, with the file's EXIF orientation:
/// what ``JPEGDecoder`` decodes the rows with. Frees libjpeg's structures when released.
public final class JPEGReader {
    let pointer: OpaquePointer
    /// The frame as libjpeg reads it: stored sides, whether it has more than one scan.
    let info: preload_jpeg_info
    /// The orientation the file's EXIF segment gives, if any.
    let stored: ExifOrientation?
    /// The orientation the decode turns the pixels by: the stored one if the options apply it.
    let applied: ExifOrientation

    /// Reads `file`'s headers (`file` must outlive the reader), letting libjpeg allocate what
    /// a file within `limits` needs for itself.
    init(_ file: UnsafeBufferPointer<UInt8>, limits: ImageLimits, appliesExifOrientation: Bool) throws {
        guard let reader = preload_jpeg_reader_create(file.baseAddress, file.count) else {
            throw JPEGDecodeError.outOfMemory
        }
        pointer = reader
        var info = preload_jpeg_info()
        let status = preload_jpeg_read_header(reader, limits.libjpegMemory, &info)
        self.info = info
        var length = 0
        let segment = status == PRELOAD_JPEG_OK ? preload_jpeg_exif(reader, &length) : nil
        stored = segment.flatMap { ExifOrientation(exifSegment: UnsafeBufferPointer(start: $0, count: length)) }
        applied = appliesExifOrientation ? (stored ?? .upright) : .upright
        try check(status)
    }

    deinit { preload_jpeg_reader_destroy(pointer) }

    /// Throws the ``JPEGDecodeError`` for a libjpeg status other than OK (`CancellationError`
    /// for a poll that asked to stop).
    func check(_ status: preload_jpeg_status) throws {
        guard status != PRELOAD_JPEG_OK else { return }
        let message = String(cString: preload_jpeg_message(pointer))
        switch status {
        case PRELOAD_JPEG_NOT_JPEG: throw JPEGDecodeError.notJPEG
        case PRELOAD_JPEG_TRUNCATED: throw JPEGDecodeError.truncated(message)
        case PRELOAD_JPEG_UNSUPPORTED: throw JPEGDecodeError.unsupported(message)
        case PRELOAD_JPEG_TOO_LARGE: throw JPEGDecodeError.tooLarge(message)
        case PRELOAD_JPEG_OUT_OF_MEMORY: throw JPEGDecodeError.outOfMemory
        case PRELOAD_JPEG_CANCELLED: throw CancellationError()
        default: throw JPEGDecodeError.corrupt(message.isEmpty ? "libjpeg status \(status.rawValue)" : message)
        }
    }
}
