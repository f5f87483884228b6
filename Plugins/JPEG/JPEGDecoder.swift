import CPreloadJPEG
import Preload

/// The JPEG loader plugin: claims `.jpg`, `.jpeg`, `.jpe` and `.jfif` files and any file that
/// starts with the JPEG SOI marker, and decodes them with libjpeg-turbo into RGBA8 `Texture`s
/// (``JPEGDecoder``).
///
/// ```swift
/// import Preload
/// import PreloadJPEG
///
/// let coordinator = try PreloadCoordinator(plugins: [JPEGLoader()])
/// ```
public typealias JPEGLoader = ImageLoader<JPEGDecoder>

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
public enum JPEGDecoder: ImageDecoder {
    /// The first bytes of every JPEG file: the SOI marker and the next marker's `FF`.
    public static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Output bytes decoded per chunk of rows between cancellation checks.
    static let bytesPerChunk = 64 * 1024

    /// The share of a multi-scan (progressive) decode's progress that reading its scans takes,
    /// before the first row exists.
    static let scanShare = 0.75

    public static var identifier: String { "jpeg" }
    public static var fileExtensions: Set<String> { ["jpg", "jpeg", "jpe", "jfif"] }
    /// Enough to find the frame header (SOF) after the usual metadata segments (JFIF, EXIF
    /// without a large thumbnail, quantization tables); a file whose SOF comes later is weighed
    /// by its size.
    public static var headerLength: Int { 16 * 1024 }
    /// The stored orientation.
    public static var defaultSettings: JPEGSettings { JPEGSettings() }

    public static func matchesSignature(_ header: [UInt8]) -> Bool {
        header.starts(with: signature)
    }

    /// The frame header's sides, found by walking the segments without libjpeg.
    public static func estimatedSize(header: [UInt8], options: JPEGLoaderSettings) -> ImageSize? {
        JPEGHeader(header).map { ImageSize(width: $0.width, height: $0.height, isOpaque: true) }
    }

    /// libjpeg's reader after it read the headers, and the file's EXIF orientation.
    public static func readHeader(_ file: UnsafeBufferPointer<UInt8>, options: JPEGLoaderSettings) throws -> JPEGReader {
        guard !file.isEmpty else { throw JPEGDecodeError.emptyFile }
        return try JPEGReader(file, limits: options.limits, appliesExifOrientation: options.appliesExifOrientation)
    }

    /// The stored sides, swapped when the orientation applied turns them a quarter; opaque.
    public static func size(of reader: JPEGReader, options: JPEGLoaderSettings) -> ImageSize {
        let (width, height) = (Int(reader.info.width), Int(reader.info.height))
        return reader.applied.swapsSides
            ? ImageSize(width: height, height: width, isOpaque: true) : ImageSize(width: width, height: height, isOpaque: true)
    }

    /// Starts libjpeg's decompression (a progressive file: reads every scan, polled), then
    /// reads the rows a chunk at a time.
    public static func decode(
        _ file: UnsafeBufferPointer<UInt8>, header reader: JPEGReader, options: JPEGLoaderSettings, into target: ImageDecodeTarget
    ) throws -> [AssetWarning] {
        let multipleScans = reader.info.multiple_scans != 0
        try target.checkCancellation()
        try start(reader, multipleScans: multipleScans, target: target)
        let sourceRows = Int(reader.info.height)
        let rowsPerChunk = max(1, min(sourceRows, bytesPerChunk / (Int(reader.info.width) * 4)))
        let (base, share) = multipleScans ? (scanShare, 1 - scanShare) : (0, 1)
        try target.writePixels { buffer in
            let image = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var rowsDone = 0
            while rowsDone < sourceRows {
                try target.checkCancellation()
                var rows: UInt32 = 0
                try reader.check(preload_jpeg_read_rows(reader.pointer, image, UInt32(rowsPerChunk), &rows))
                rowsDone += Int(rows)
                if rowsDone < sourceRows { target.reportProgress(base + share * Double(rowsDone) / Double(sourceRows)) }
            }
            try reader.check(preload_jpeg_finish(reader.pointer))
        }
        var warnings = JPEGWarnings.of(reader.pointer)
        if let stored = reader.stored, stored != .upright, !options.appliesExifOrientation {
            warnings.append(JPEGWarnings.orientationNotApplied(stored))
        }
        return warnings
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

    /// Starts the decompression, turning the pixels as `reader.applied` says; a multi-scan
    /// file's scans are read now, polling `target` for cancellation and reporting progress.
    private static func start(_ reader: JPEGReader, multipleScans: Bool, target: ImageDecodeTarget) throws {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var scanPoll = ScanPoll(isCancelled: { target.isCancelled }, progress: { target.reportProgress($0) })
        let callback: preload_jpeg_poll = { context, fraction in
            context!.assumingMemoryBound(to: ScanPoll.self).pointee.poll(fraction) ? 1 : 0
        }
        let status = withUnsafeMutablePointer(to: &scanPoll) { context in
            preload_jpeg_start(reader.pointer, Int32(reader.applied.rawValue), multipleScans ? callback : nil, context, &width, &height)
        }
        try reader.check(status)
    }
}
