import CPreloadPNG
import Preload

/// The PNG loader plugin: claims `.png` files and any file that starts with the PNG signature,
/// and decodes them with libpng into `Texture`s (``PNGDecoder``).
///
/// ```swift
/// import Preload
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// ```
public typealias PNGLoader = ImageLoader<PNGDecoder>

/// Decodes PNG data into a `Texture`: the PNGs games ship (8-bit, not interlaced, plain chunks)
/// with the fast path (``PNGFastPath``), everything else with libpng's low-level API, both with
/// the same pixels, warnings and errors (``PNGSettings/path`` chooses one alone).
///
/// Every colour type, bit depth and Adam7 interlacing is supported. Samples are taken as stored
/// (no gamma or colour-space conversion, no background compositing), tRNS becomes alpha, gray is
/// replicated to RGB, sub-byte samples are scaled by bit replication, and 16-bit samples keep
/// their high byte unless ``PNGSettings/keepsSixteenBitSamples`` is set.
///
/// The decoder writes rows straight into the texture's pixel array (no second copy of the
/// image), a few rows at a time, checking `isCancelled` between chunks. What a file is forgiven
/// (no IEND chunk, a bad CRC on an ancillary chunk) becomes warnings.
/// `PNGDecoder.decode(_:options:memory:isCancelled:progress:warn:)` decodes a file outside a
/// coordinator.
public enum PNGDecoder: ImageDecoder {
    /// The eight bytes every PNG file starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Output bytes decoded per chunk of rows between cancellation checks.
    static let bytesPerChunk = 64 * 1024

    public static var identifier: String { "png" }
    public static var fileExtensions: Set<String> { ["png"] }
    /// The signature, the IHDR chunk's length and type, and its 13 data bytes.
    public static var headerLength: Int { 33 }
    /// 8-bit samples.
    public static var defaultSettings: PNGSettings { PNGSettings() }

    public static func matchesSignature(_ header: [UInt8]) -> Bool {
        header.starts(with: signature)
    }

    /// The IHDR's sides, read without libpng.
    public static func estimatedSize(header: [UInt8], options: PNGLoaderSettings) -> ImageSize? {
        PNGHeader(header)?.size(options: options)
    }

    /// The fast path's plan when it takes the file, else libpng's reader after it read every chunk
    /// up to the image data.
    public static func readHeader(_ file: UnsafeBufferPointer<UInt8>, options: PNGLoaderSettings) throws -> PNGReader {
        guard !file.isEmpty else { throw PNGDecodeError.emptyFile }
        return try PNGReader(file, keepsSixteenBitSamples: options.keepsSixteenBitSamples, path: options.settings.path)
    }

    /// The IHDR's sides; RGBA16 when 16-bit samples are kept, else RGBA8.
    public static func size(of reader: PNGReader, options: PNGLoaderSettings) -> ImageSize {
        ImageSize(width: Int(reader.info.width), height: Int(reader.info.height), pixelFormat: reader.pixelFormat)
    }

    /// The fast path's inflate and unfilter when it took the file (libpng's, into the same memory,
    /// if the image data does not inflate exactly); else libpng's transforms and rows, a chunk of
    /// rows at a time (every pass of an interlaced file), then the chunks after the image data.
    public static func decode(
        _ file: UnsafeBufferPointer<UInt8>, header reader: PNGReader, options: PNGLoaderSettings, into target: ImageDecodeTarget
    ) throws -> [AssetWarning] {
        guard let fast = reader.fast else {
            try reader.start()
            try target.writePixels { buffer in try readRows(reader, into: buffer, target: target) }
            return PNGWarnings.of(reader.libpng!)
        }
        var warnings: [AssetWarning] = []
        try target.writePixels(workingCapacity: Int(preload_png_fast_working_bytes(fast))) { buffer in
            let image = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            try target.checkCancellation()
            var reason: UnsafePointer<CChar>?
            switch preload_png_fast_inflate(fast, image, &reason) {
            case 1:
                try unfilterRows(fast, reader.info, into: image, target: target)
            case 0:
                if options.settings.path == .fastPathOnly { throw PNGFastPathDeclined(reason: reason.map { String(cString: $0) } ?? "declined") }
                try reader.openLibpng(file, keepsSixteenBitSamples: options.keepsSixteenBitSamples)
                try reader.start()
                try readRows(reader, into: buffer, target: target)
                warnings = PNGWarnings.of(reader.libpng!)
            default:
                throw PNGDecodeError.outOfMemory
            }
        }
        return warnings
    }

    /// The fast path's rows after the inflate (a share of the work reported as done, about what
    /// it takes), a band at a time between cancellation checks. An image of one band reports
    /// nothing: its load's end says it is done, and a report per image took the batch's lock
    /// for nothing (20,000 16x16 PNGs: 7% of the whole command's CPU spent waiting on that lock).
    private static func unfilterRows(
        _ fast: OpaquePointer, _ info: preload_png_info, into image: UnsafeMutablePointer<UInt8>, target: ImageDecodeTarget
    ) throws {
        let height = Int(info.height), rowBytes = Int(info.row_bytes)
        let rowsPerChunk = max(1, min(height, bytesPerChunk / max(rowBytes, 1)))
        let inflateShare = 0.6
        var row = 0
        while row < height {
            if row > 0 { try target.checkCancellation() }
            if rowsPerChunk < height { target.reportProgress(inflateShare + (1 - inflateShare) * Double(row) / Double(height)) }
            let rows = min(rowsPerChunk, height - row)
            preload_png_fast_rows(fast, image, UInt32(row), UInt32(rows))
            row += rows
            // The next band's filters read this band's last row as it was decoded: it stays
            // straight until then (the rest is premultiplied when the pixels are written).
            target.pixelsFinal(upTo: (row - 1) * rowBytes)
        }
    }

    /// libpng's rows, a chunk at a time (every pass of an interlaced file), then the chunks after
    /// the image data.
    private static func readRows(_ reader: PNGReader, into buffer: UnsafeMutableRawBufferPointer, target: ImageDecodeTarget) throws {
        let pointer = reader.libpng!
        let height = Int(reader.info.height), rowBytes = Int(reader.info.row_bytes), passes = Int(reader.info.passes)
        let rowsPerChunk = max(1, min(height, bytesPerChunk / max(rowBytes, 1)))
        let totalRows = height * passes
        let image = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var rowsDone = 0
        for _ in 0..<passes {
            var row = 0
            while row < height {
                try target.checkCancellation()
                let rows = min(rowsPerChunk, height - row)
                try reader.check(preload_png_read_rows(pointer, image, UInt32(row), UInt32(rows)))
                row += rows
                rowsDone += rows
                if passes == 1 { target.pixelsFinal(upTo: row * rowBytes) }
                if rowsDone < totalRows { target.reportProgress(Double(rowsDone) / Double(totalRows)) }
            }
        }
        try reader.check(preload_png_read_end(pointer))
    }
}
