import Preload

/// The QOI loader plugin: claims `.qoi` files and any file that starts with `qoif`, and decodes
/// them in Swift into RGBA8 `Texture`s (``QOIDecoder``).
///
/// ```swift
/// import Preload
/// import PreloadQOI
///
/// let coordinator = try PreloadCoordinator(plugins: [QOILoader()])
/// ```
public typealias QOILoader = ImageLoader<QOIDecoder>

/// Decodes QOI ("Quite OK Image", <https://qoiformat.org>) files into `Texture`s, in Swift.
///
/// RGB files become RGBA8 with alpha 255, RGBA files keep their alpha; rows top first, samples
/// as stored (the colour-space byte is informative only). The 14-byte header is checked
/// against the request's `ImageLimits` before pixel memory exists; pixels are then written straight into it
/// (`AssetBytes(unsafeUninitializedCapacity:)`, no second copy), 64 KiB at a time, checking
/// `isCancelled` between chunks.
///
/// A file whose ops end before every pixel is decoded fails (``QOIDecodeError/truncated(_:)``):
/// no partly decoded image is ever returned. Once every pixel is decoded, a missing or wrong
/// end marker, bytes after it, a last run past the image's end and an unknown colour space are
/// warnings (``QOIDecodeError`` names the failures; the `qoi.` codes on `AssetWarning.Code`,
/// the warnings).
public enum QOIDecoder: ImageDecoder {
    /// The four bytes every QOI file starts with: `qoif`.
    public static let signature: [UInt8] = [0x71, 0x6F, 0x69, 0x66]
    /// The eight bytes that end a QOI file's ops.
    public static let endMarker: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1]

    /// Pixels decoded per chunk between cancellation checks (64 KiB of output).
    static let pixelsPerChunk = 16 * 1024
    /// The most pixels one op makes: a run of 62.
    static let maxPixelsPerOp = 62

    public static var identifier: String { "qoi" }
    public static var fileExtensions: Set<String> { ["qoi"] }
    /// The whole header: signature, width, height, channels, colour space.
    public static var headerLength: Int { QOIHeader.length }

    public static func matchesSignature(_ header: [UInt8]) -> Bool {
        header.starts(with: signature)
    }

    /// `width * height * 4` from the header, when the header is valid and within `options`'
    /// limits (otherwise the load will fail, and the file's size is weight enough).
    public static func estimatedSize(header: [UInt8], options: QOILoaderSettings) -> ImageSize? {
        guard let parsed = QOIHeader(header), (try? parsed.validate(limits: options.limits)) != nil else { return nil }
        return parsed.size
    }

    /// The header of `file`, or why there is none: not QOI, cut short, or fields QOI does not
    /// allow.
    public static func readHeader(_ file: UnsafeBufferPointer<UInt8>, options: QOILoaderSettings) throws -> QOIHeader {
        guard !file.isEmpty else { throw QOIDecodeError.emptyFile }
        let header = try readHeader(file)
        try header.validateFields()
        return header
    }

    /// RGBA8 of the header's sides, opaque for an RGB file.
    public static func size(of header: QOIHeader, options: QOILoaderSettings) -> ImageSize {
        header.size
    }

    /// Checks that the file can hold its pixels' ops, then decodes the ops a chunk of pixels
    /// at a time.
    public static func decode(
        _ input: UnsafeBufferPointer<UInt8>, header: QOIHeader, options: QOILoaderSettings, into target: ImageDecodeTarget
    ) throws -> [AssetWarning] {
        var warnings: [AssetWarning] = []
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
        try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: QOIOpStream.scratchWords) { scratch in
            var ops = QOIOpStream(input: input, start: QOIHeader.length, opaque: header.channels == 3, scratch: scratch.baseAddress!)
            try target.writePixels { buffer in
                let image = buffer.baseAddress!
                var done = 0
                while done < pixelCount {
                    try target.checkCancellation()
                    let chunk = min(pixelsPerChunk, pixelCount - done)
                    let written = ops.decode(into: image + done * 4, pixels: chunk)
                    guard written == chunk else {
                        throw QOIDecodeError.truncated(
                            "the data ends after \(done + written) of \(pixelCount) pixels (\(header.width)x\(header.height))")
                    }
                    done += chunk
                    target.pixelsFinal(upTo: done * 4)
                    if done < pixelCount { target.reportProgress(Double(done) / Double(pixelCount)) }
                }
            }
            warnings += ending(of: input, after: ops)
        }
        return warnings
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
