import Preload

/// Decodes QOI ("Quite OK Image", <https://qoiformat.org>) files into `Texture`s, in Swift.
///
/// RGB files become RGBA8 with alpha 255, RGBA files keep their alpha; rows top first, samples
/// as stored (the colour-space byte is informative only). The 14-byte header is checked
/// against ``QOILimits`` before pixel memory exists; pixels are then written straight into it
/// (`AssetBytes(unsafeUninitializedCapacity:)`, no second copy), 64 KiB at a time, checking
/// `isCancelled` between chunks.
///
/// A file whose ops end before every pixel is decoded fails (``QOIDecodeError/truncated(_:)``):
/// no partly decoded image is ever returned. Once every pixel is decoded, a missing or wrong
/// end marker, bytes after it, a last run past the image's end and an unknown colour space are
/// warnings (``QOIDecodeError`` names the failures; the `qoi.` codes on `AssetWarning.Code`,
/// the warnings).
public enum QOIDecoder {
    /// The four bytes every QOI file starts with: `qoif`.
    public static let signature: [UInt8] = [0x71, 0x6F, 0x69, 0x66]
    /// The eight bytes that end a QOI file's ops.
    public static let endMarker: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]

    /// Pixels decoded per chunk between cancellation checks (64 KiB of output).
    static let pixelsPerChunk = 16 * 1024
    /// The most pixels one op makes: a run of 62.
    static let maxPixelsPerOp = 62

    /// Decodes `data`, a whole QOI file.
    /// - Parameters:
    ///   - data: the file's bytes, from its signature to its end.
    ///   - options: alpha mode and limits.
    ///   - memory: where large pixel buffers come from (see `AssetMemory`).
    ///   - isCancelled: polled between chunks of pixels; when it returns true the decode stops
    ///     and throws `CancellationError`.
    ///   - progress: called with the fraction of pixels done, for images decoded in more than
    ///     one chunk (the final 1.0 is implied by returning).
    ///   - warn: called with each irregularity the file was forgiven, after every pixel is
    ///     decoded; throwing fails the decode.
    public static func decode(
        _ data: AssetBytes, options: QOIDecodeOptions = QOIDecodeOptions(), memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        guard !data.isEmpty else { throw QOIDecodeError.emptyFile }
        var warnings: [AssetWarning] = []
        let texture = try data.withUnsafeBufferPointer { input in
            try decode(input, options: options, memory: memory, isCancelled: isCancelled, progress: progress, warnings: &warnings)
        }
        for warning in warnings { try warn(warning) }
        return texture
    }

    /// Decodes `data`, a whole QOI file, held in an array (not copied).
    public static func decode(
        _ data: [UInt8], options: QOIDecodeOptions = QOIDecodeOptions(), memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        try decode(AssetBytes(data), options: options, memory: memory, isCancelled: isCancelled, progress: progress, warn: warn)
    }

    private static func decode(
        _ input: UnsafeBufferPointer<UInt8>, options: QOIDecodeOptions, memory: AssetMemory,
        isCancelled: () -> Bool, progress: (Double) -> Void, warnings: inout [AssetWarning]
    ) throws -> Texture {
        let header = try readHeader(input)
        try header.validate(limits: options.limits)
        if header.colorspace > 1 {
            warnings.append(
                AssetWarning(.qoiUnknownColorspace, "colour-space byte \(header.colorspace) is neither 0 (sRGB) nor 1 (linear); ignored"))
        }
        let pixelCount = header.width * header.height  // within the limits: no overflow
        // No op makes more than 62 pixels: a file too short for its header fails before its
        // pixel memory is allocated (a few bytes must not cost gigabytes).
        let opBytes = input.count - QOIHeader.length
        let fewestOpBytes = (pixelCount + maxPixelsPerOp - 1) / maxPixelsPerOp
        guard opBytes >= fewestOpBytes else {
            throw QOIDecodeError.truncated(
                "\(header.width)x\(header.height) pixels take at least \(fewestOpBytes) bytes of ops; the file has \(opBytes)")
        }
        let premultiply = options.alphaMode == .premultiplied
        let pixels = try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: QOIOpStream.scratchWords) { scratch in
            var ops = QOIOpStream(input: input, start: QOIHeader.length, opaque: header.channels == 3, scratch: scratch.baseAddress!)
            let pixels = try AssetBytes(unsafeUninitializedCapacity: pixelCount * 4, memory: memory) { buffer, count in
                let image = buffer.baseAddress!
                var done = 0
                while done < pixelCount {
                    if isCancelled() { throw CancellationError() }
                    let chunk = min(pixelsPerChunk, pixelCount - done)
                    let written = ops.decode(into: image + done * 4, pixels: chunk)
                    guard written == chunk else {
                        throw QOIDecodeError.truncated(
                            "the data ends after \(done + written) of \(pixelCount) pixels (\(header.width)x\(header.height))")
                    }
                    if premultiply {
                        Premultiplication.apply(to: (image + done * 4).assumingMemoryBound(to: UInt8.self), count: chunk * 4, format: .rgba8)
                    }
                    done += chunk
                    if done < pixelCount { progress(Double(done) / Double(pixelCount)) }
                }
                count = pixelCount * 4
            }
            warnings += ending(of: input, after: ops)
            return pixels
        }
        return Texture(width: header.width, height: header.height, pixelFormat: .rgba8, alphaMode: options.alphaMode, pixels: pixels)
    }

    /// The header of `input`, or why there is none.
    private static func readHeader(_ input: UnsafeBufferPointer<UInt8>) throws(QOIDecodeError) -> QOIHeader {
        let start = input.prefix(signature.count)
        guard start.elementsEqual(signature.prefix(start.count)) else { throw .notQOI }
        guard let header = QOIHeader(parsing: input) else {
            throw .truncated("the header needs \(QOIHeader.length) bytes; the file has \(input.count)")
        }
        return header
    }

    /// What is irregular about the bytes after the last pixel, once every pixel is decoded.
    private static func ending(of input: UnsafeBufferPointer<UInt8>, after ops: QOIOpStream) -> [AssetWarning] {
        var warnings: [AssetWarning] = []
        if ops.pendingRun > 0 {
            warnings.append(AssetWarning(.qoiRunPastEnd, "the last run goes \(ops.pendingRun) pixels past the image's end; they were dropped"))
        }
        let rest = input[ops.position...]
        if rest.starts(with: endMarker) {
            if rest.count > endMarker.count {
                warnings.append(AssetWarning(.qoiTrailingData, "\(rest.count - endMarker.count) bytes after the end marker were ignored"))
            }
        } else if rest.isEmpty {
            warnings.append(AssetWarning(.qoiNoEndMarker, "the file ends at the last pixel, without the end marker"))
        } else if rest.count < endMarker.count && endMarker.starts(with: rest) {
            warnings.append(AssetWarning(.qoiNoEndMarker, "the file ends inside the end marker, after the last pixel"))
        } else {
            warnings.append(AssetWarning(.qoiNoEndMarker, "the bytes after the last pixel are not the end marker; they were ignored"))
        }
        return warnings
    }
}
