import CPreloadPNG
import Preload

/// Decodes PNG data with libpng's low-level API into a `Texture`.
///
/// Every colour type, bit depth and Adam7 interlacing is supported. Samples are taken as stored
/// (no gamma or colour-space conversion, no background compositing), tRNS becomes alpha, gray is
/// replicated to RGB, sub-byte samples are scaled by bit replication, and 16-bit samples keep
/// their high byte unless ``PNGDecodeOptions/keepsSixteenBitSamples`` is set.
///
/// The decoder writes rows straight into the texture's pixel array (no second copy of the
/// image), a few rows at a time, checking `isCancelled` between chunks.
public enum PNGDecoder {
    /// The eight bytes every PNG file starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Output bytes decoded per chunk of rows between cancellation checks.
    static let bytesPerChunk = 64 * 1024

    /// Decodes `data`, a whole PNG file.
    /// - Parameters:
    ///   - data: the file's bytes, from its signature to its end.
    ///   - options: the transforms to apply: alpha mode, 16-bit samples kept or not, limits.
    ///   - isCancelled: polled between chunks of rows; when it returns true the decode stops
    ///     and throws `CancellationError`.
    ///   - progress: called with the fraction of rows done, for images decoded in more than one
    ///     chunk (the final 1.0 is implied by returning).
    ///   - memory: where large pixel buffers come from (see `AssetMemory`).
    ///   - warn: called with each irregularity the file was forgiven (no IEND chunk, a bad CRC
    ///     on an ancillary chunk), after the pixels are decoded; throwing fails the decode.
    public static func decode(
        _ data: AssetBytes, options: PNGDecodeOptions = PNGDecodeOptions(), memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        guard !data.isEmpty else { throw PNGDecodeError.emptyFile }
        return try data.withUnsafeBufferPointer { input in
            guard let reader = preload_png_reader_create(input.baseAddress, input.count) else {
                throw PNGDecodeError.outOfMemory
            }
            defer { preload_png_reader_destroy(reader) }
            let texture = try decode(reader, options: options, memory: memory, isCancelled: isCancelled, progress: progress)
            for warning in PNGWarnings.of(reader) { try warn(warning) }
            return texture
        }
    }

    /// Decodes `data`, a whole PNG file, held in an array (not copied).
    public static func decode(
        _ data: [UInt8], options: PNGDecodeOptions = PNGDecodeOptions(), memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        try decode(AssetBytes(data), options: options, memory: memory, isCancelled: isCancelled, progress: progress, warn: warn)
    }

    private static func decode(
        _ reader: OpaquePointer, options: PNGDecodeOptions, memory: AssetMemory,
        isCancelled: () -> Bool, progress: (Double) -> Void
    ) throws -> Texture {
        var limits = preload_png_limits(
            max_width: UInt32(clamping: options.limits.maxWidth),
            max_height: UInt32(clamping: options.limits.maxHeight),
            max_decoded_bytes: UInt64(clamping: options.limits.maxDecodedBytes))
        var info = preload_png_info()
        try check(preload_png_read_header(reader, &limits, options.keepsSixteenBitSamples ? 1 : 0, &info), reader)

        let height = Int(info.height), rowBytes = Int(info.row_bytes), passes = Int(info.passes)
        let format: PixelFormat = info.bytes_per_sample == 2 ? .rgba16 : .rgba8
        let premultiply = options.alphaMode == .premultiplied
        let rowsPerChunk = max(1, min(height, bytesPerChunk / max(rowBytes, 1)))
        let totalRows = height * passes
        let pixels = try AssetBytes(unsafeUninitializedCapacity: Int(info.decoded_bytes), memory: memory) { buffer, count in
            let image = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var rowsDone = 0
            for _ in 0..<passes {
                var row = 0
                while row < height {
                    if isCancelled() { throw CancellationError() }
                    let rows = min(rowsPerChunk, height - row)
                    try check(preload_png_read_rows(reader, image, UInt32(row), UInt32(rows)), reader)
                    if premultiply && passes == 1 {
                        Premultiplication.apply(to: image + row * rowBytes, count: rows * rowBytes, format: format)
                    }
                    row += rows
                    rowsDone += rows
                    if rowsDone < totalRows { progress(Double(rowsDone) / Double(totalRows)) }
                }
            }
            try check(preload_png_read_end(reader), reader)
            if premultiply && passes > 1 {
                Premultiplication.apply(to: image, count: buffer.count, format: format)
            }
            count = buffer.count
        }
        return Texture(
            width: Int(info.width), height: height, pixelFormat: format,
            alphaMode: options.alphaMode, pixels: pixels)
    }

    private static func check(_ status: preload_png_status, _ reader: OpaquePointer) throws {
        guard status != PRELOAD_PNG_OK else { return }
        let message = String(cString: preload_png_message(reader))
        switch status {
        case PRELOAD_PNG_NOT_PNG: throw PNGDecodeError.notPNG
        case PRELOAD_PNG_TRUNCATED: throw PNGDecodeError.truncated(message)
        case PRELOAD_PNG_TOO_LARGE: throw PNGDecodeError.tooLarge(message)
        case PRELOAD_PNG_OUT_OF_MEMORY: throw PNGDecodeError.outOfMemory
        default: throw PNGDecodeError.corrupt(message.isEmpty ? "libpng status \(status.rawValue)" : message)
        }
    }
}

/// The fields of a PNG's IHDR chunk, read without libpng from the first 33 bytes of a file.
package struct PNGHeader: Hashable, Sendable {
    package let width: Int
    package let height: Int
    package let bitDepth: Int
    package let colorType: Int

    /// Parses `bytes`, the start of a file; `nil` unless they hold a signature and an IHDR.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 26, bytes.starts(with: PNGDecoder.signature),
            bytes[12...15].elementsEqual("IHDR".utf8)
        else { return nil }
        func bigEndian(_ offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        width = bigEndian(16)
        height = bigEndian(20)
        bitDepth = Int(bytes[24])
        colorType = Int(bytes[25])
    }

    /// Bytes the decoded pixels take with `options`; `Int.max` when a hostile header's sides
    /// (up to 2³² - 1 each) multiply past it (the decode then refuses the file by its limits).
    package func decodedBytes(options: PNGDecodeOptions = PNGDecodeOptions()) -> Int {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflowBytes) = pixels.multipliedReportingOverflow(by: options.keepsSixteenBitSamples && bitDepth == 16 ? 8 : 4)
        return overflow || overflowBytes ? .max : bytes
    }
}
