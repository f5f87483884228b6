import CPreloadWebP
import Preload

/// Decodes WebP data with libwebp into a `Texture`: lossy, lossy with alpha and lossless
/// images, and the first frame of an animation.
///
/// Output is RGBA8, rows top first, straight alpha unless ``WebPDecodeOptions/alphaMode`` asks
/// for premultiplied; an opaque image gets alpha 255. The header is read first
/// (`WebPGetFeatures`) and checked against ``WebPLimits`` before pixel memory exists; libwebp's
/// incremental decoder then writes straight into the texture's pixels, a chunk of the file at a
/// time, checking `isCancelled` between chunks. A file that ends early or that libwebp rejects
/// throws ``WebPDecodeError``, never a partly decoded image.
public enum WebPDecoder {
    /// Decodes `data`, a whole WebP file.
    /// - Parameters:
    ///   - data: the file's bytes, from `RIFF` to the end of its last chunk.
    ///   - options: the alpha mode and limits.
    ///   - memory: where large pixel buffers come from (see `AssetMemory`).
    ///   - isCancelled: polled between chunks; when it returns true the decode stops and throws
    ///     `CancellationError`.
    ///   - progress: called with the fraction of rows done, for images decoded in more than one
    ///     chunk (the final 1.0 is implied by returning).
    ///   - warn: called with each irregularity the file was forgiven (an animation of which only
    ///     the first frame loads, bytes after the RIFF chunk), after the pixels are decoded;
    ///     throwing fails the decode.
    public static func decode(
        _ data: AssetBytes, options: WebPDecodeOptions = WebPDecodeOptions(), memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        guard !data.isEmpty else { throw WebPDecodeError.emptyFile }
        return try data.withUnsafeBufferPointer { file in
            guard WebPHeader.hasSignature(file) else {
                throw WebPHeader.startsLikeSignature(file)
                    ? WebPDecodeError.truncated("the file ends inside its RIFF header (\(file.count) bytes)")
                    : WebPDecodeError.notWebP
            }
            // libwebp's one-call decode refuses a file shorter than its RIFF header says; the
            // incremental decoder would wait for the rest, or finish if the image needs none of it.
            let declared = WebPHeader.riffSize(file) + 8
            guard file.count >= declared else {
                throw WebPDecodeError.truncated("the file has \(file.count) bytes, its RIFF header declares \(declared)")
            }
            var features = WebPBitstreamFeatures()
            let status = try WebPLibrary.get().features(file.baseAddress, file.count, &features)
            guard status == VP8_STATUS_OK else {
                throw WebPDecodeError(status: status, context: "in the file's headers (\(file.count) bytes)")
            }
            let width = Int(features.width), height = Int(features.height)
            try options.limits.check(width: width, height: height)

            var warnings: [AssetWarning] = []
            let texture: Texture
            if features.has_animation != 0 {
                texture = try AnimationFirstFrame.withFirstFrame(of: file, canvasWidth: width, canvasHeight: height) { frame in
                    if frame.frameCount > 1 {
                        warnings.append(
                            AssetWarning(
                                .webpAnimatedFirstFrame,
                                "animated WebP of \(frame.frameCount) frames on a \(width)x\(height) canvas: loaded the first frame only"))
                    }
                    return try decodePixels(width: width, height: height, hasAlpha: true, options: options, memory: memory) {
                        try frame.decode(into: $0, isCancelled: isCancelled, progress: progress)
                    }
                }
            } else {
                texture = try decodePixels(width: width, height: height, hasAlpha: features.has_alpha != 0, options: options, memory: memory) {
                    try IncrementalDecoding.decode(
                        file, height: height, into: $0, stride: width * 4, byteCount: width * height * 4,
                        isCancelled: isCancelled, progress: progress)
                }
            }
            if file.count > declared {
                warnings.append(
                    AssetWarning(.webpTrailingData, "\(file.count - declared) bytes after the RIFF chunk's end were ignored"))
            }
            for warning in warnings { try warn(warning) }
            return texture
        }
    }

    /// Decodes `data`, a whole WebP file, held in an array (not copied).
    public static func decode(
        _ data: [UInt8], options: WebPDecodeOptions = WebPDecodeOptions(), memory: AssetMemory = .shared,
        isCancelled: () -> Bool = { false }, progress: (Double) -> Void = { _ in },
        warn: (AssetWarning) throws -> Void = { _ in }
    ) throws -> Texture {
        try decode(AssetBytes(data), options: options, memory: memory, isCancelled: isCancelled, progress: progress, warn: warn)
    }

    /// A `width` x `height` RGBA8 texture whose pixels `decode` writes into pooled memory (given
    /// their start), premultiplied afterwards if `options` ask and the image `hasAlpha`. If
    /// `decode` throws, the memory goes back to the pool and nothing of the image remains.
    private static func decodePixels(
        width: Int, height: Int, hasAlpha: Bool, options: WebPDecodeOptions, memory: AssetMemory,
        _ decode: (UnsafeMutablePointer<UInt8>) throws -> Void
    ) throws -> Texture {
        let pixels = try AssetBytes(unsafeUninitializedCapacity: width * height * 4, memory: memory) { buffer, count in
            let image = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            try decode(image)
            if options.alphaMode == .premultiplied && hasAlpha {
                Premultiplication.apply(to: image, count: buffer.count, format: .rgba8)
            }
            count = buffer.count
        }
        return Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: options.alphaMode, pixels: pixels)
    }
}
