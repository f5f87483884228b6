import CPreloadJPEG
import Preload

/// Decodes JPEG data with libjpeg-turbo's libjpeg API into an RGBA8 `Texture`.
///
/// Baseline and progressive files, Huffman or arithmetic coded, every chroma subsampling,
/// greyscale, YCbCr, RGB, CMYK and YCCK. The pixels are libjpeg's accurate integer IDCT
/// (`JDCT_ISLOW`) with fancy upsampling, written straight into the texture's pixels as RGBA
/// (libjpeg-turbo's `JCS_EXT_RGBA`, alpha 255): the same pixels as Pillow's decode. CMYK and
/// YCCK are converted as Pillow converts them (Adobe's inverted polarity).
///
/// Rows are decoded a chunk at a time, checking `isCancelled` between chunks; a progressive
/// file is read in full before its first row exists, and is polled while it is. Damaged or
/// missing data (a file cut short, a bad Huffman code, a lost restart marker) fails the decode:
/// libjpeg would pad it with grey and only warn.
public enum JPEGDecoder {
    /// The first bytes of every JPEG file: the SOI marker and the next marker's `FF`.
    public static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Output bytes decoded per chunk of rows between cancellation checks.
    static let bytesPerChunk = 64 * 1024

    /// The share of a multi-scan (progressive) decode's progress that reading its scans takes,
    /// before the first row exists.
    static let scanShare = 0.75

    /// Decodes `data`, a whole JPEG file.
    /// - Parameters:
    ///   - data: the file's bytes, from its SOI marker to its EOI marker.
    ///   - options: alpha mode, EXIF orientation, limits.
    ///   - memory: where large pixel buffers come from (see `AssetMemory`).
    ///   - isCancelled: polled between chunks of rows (and while a progressive file's scans are
    ///     read); when it returns true the decode stops and throws `CancellationError`.
    ///   - progress: called with the fraction done, for images decoded in more than one chunk
    ///     (the final 1.0 is implied by returning).
    ///   - warn: called with each irregularity the file was forgiven (an EXIF orientation not
    ///     applied, junk between segments), after the pixels are decoded; throwing fails the decode.
    public static func decode(
        _ data: AssetBytes, options: JPEGDecodeOptions = JPEGDecodeOptions(), memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        guard !data.isEmpty else { throw JPEGDecodeError.emptyFile }
        return try data.withUnsafeBufferPointer { input in
            guard let reader = preload_jpeg_reader_create(input.baseAddress, input.count) else {
                throw JPEGDecodeError.outOfMemory
            }
            defer { preload_jpeg_reader_destroy(reader) }
            var info = preload_jpeg_info()
            try check(preload_jpeg_read_header(reader, options.limits.libjpegMemory, &info), reader)
            let stored = orientation(of: reader)
            let applied = options.appliesExifOrientation ? (stored ?? .upright) : .upright
            try checkLimits(info, orientation: applied, options.limits)
            let texture = try decodePixels(
                reader, info, orientation: applied, options: options, memory: memory, isCancelled: isCancelled, progress: progress)
            for warning in JPEGWarnings.of(reader) { try warn(warning) }
            if let stored, stored != .upright, !options.appliesExifOrientation {
                try warn(JPEGWarnings.orientationNotApplied(stored))
            }
            return texture
        }
    }

    /// Decodes `data`, a whole JPEG file, held in an array (not copied).
    public static func decode(
        _ data: [UInt8], options: JPEGDecodeOptions = JPEGDecodeOptions(), memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        try decode(AssetBytes(data), options: options, memory: memory, isCancelled: isCancelled, progress: progress, warn: warn)
    }

    /// The orientation the file's EXIF segment gives, if any.
    private static func orientation(of reader: OpaquePointer) -> ExifOrientation? {
        var length = 0
        guard let segment = preload_jpeg_exif(reader, &length) else { return nil }
        return ExifOrientation(exifSegment: UnsafeBufferPointer(start: segment, count: length))
    }

    private static func checkLimits(_ info: preload_jpeg_info, orientation: ExifOrientation, _ limits: JPEGLimits) throws {
        let (width, height) = orientation.swapsSides ? (Int(info.height), Int(info.width)) : (Int(info.width), Int(info.height))
        let bytes = width * height * 4  // at most 65535 * 65535 * 4: no overflow
        guard width <= limits.maxWidth, height <= limits.maxHeight, bytes <= limits.maxDecodedBytes else {
            throw JPEGDecodeError.tooLarge(
                "\(width)x\(height) image needs \(bytes) decoded bytes; limits are \(limits.maxWidth)x\(limits.maxHeight) and \(limits.maxDecodedBytes) bytes"
            )
        }
    }

    /// What the shim's poll callback reaches while a multi-scan file's scans are read.
    private struct ScanPoll {
        let isCancelled: () -> Bool
        let progress: (Double) -> Void
        /// The last fraction passed on: progress moves on by whole percents.
        var reported = 0.0

        /// Whether to stop; reports `fraction` of the input read when it moved on enough.
        mutating func poll(_ fraction: Double) -> Bool {
            if isCancelled() { return true }
            if fraction - reported >= 0.01 {
                reported = fraction
                progress(fraction * JPEGDecoder.scanShare)
            }
            return false
        }
    }

    private static func start(
        _ reader: OpaquePointer, orientation: ExifOrientation, multipleScans: Bool,
        isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> (width: Int, height: Int) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        let status = withoutActuallyEscaping(isCancelled) { isCancelled in
            withoutActuallyEscaping(progress) { progress in
                var scanPoll = ScanPoll(isCancelled: isCancelled, progress: progress)
                let callback: preload_jpeg_poll = { context, fraction in
                    context!.assumingMemoryBound(to: ScanPoll.self).pointee.poll(fraction) ? 1 : 0
                }
                return withUnsafeMutablePointer(to: &scanPoll) { context in
                    preload_jpeg_start(reader, Int32(orientation.rawValue), multipleScans ? callback : nil, context, &width, &height)
                }
            }
        }
        try check(status, reader)
        return (Int(width), Int(height))
    }

    private static func decodePixels(
        _ reader: OpaquePointer, _ info: preload_jpeg_info, orientation: ExifOrientation, options: JPEGDecodeOptions,
        memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> Texture {
        let multipleScans = info.multiple_scans != 0
        if isCancelled() { throw CancellationError() }
        let (width, height) = try start(
            reader, orientation: orientation, multipleScans: multipleScans, isCancelled: isCancelled, progress: progress)
        let sourceRows = Int(info.height)
        let rowsPerChunk = max(1, min(sourceRows, bytesPerChunk / (Int(info.width) * 4)))
        let (base, share) = multipleScans ? (scanShare, 1 - scanShare) : (0, 1)
        let pixels = try AssetBytes(unsafeUninitializedCapacity: width * height * 4, memory: memory) { buffer, count in
            let image = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var rowsDone = 0
            while rowsDone < sourceRows {
                if isCancelled() { throw CancellationError() }
                var rows: UInt32 = 0
                try check(preload_jpeg_read_rows(reader, image, UInt32(rowsPerChunk), &rows), reader)
                rowsDone += Int(rows)
                if rowsDone < sourceRows { progress(base + share * Double(rowsDone) / Double(sourceRows)) }
            }
            try check(preload_jpeg_finish(reader), reader)
            count = buffer.count
        }
        return Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: options.alphaMode, pixels: pixels)
    }

    private static func check(_ status: preload_jpeg_status, _ reader: OpaquePointer) throws {
        guard status != PRELOAD_JPEG_OK else { return }
        let message = String(cString: preload_jpeg_message(reader))
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
