import CPreloadWebP
import Preload

/// The WebP loader plugin: claims `.webp` files and any file that starts with a RIFF header of
/// form `WEBP`, and decodes them with libwebp into `Texture`s (an animation: its first frame,
/// with a warning) (``WebPDecoder``).
///
/// ```swift
/// import Preload
/// import PreloadWebP
///
/// let coordinator = try PreloadCoordinator(plugins: [WebPLoader()])
/// ```
public typealias WebPLoader = ImageLoader<WebPDecoder>

/// Decodes WebP data with libwebp into a `Texture`: lossy, lossy with alpha and lossless
/// images, and the first frame of an animation.
///
/// Output is RGBA8, rows top first, straight alpha unless `alphaMode` asks
/// for premultiplied; an opaque image gets alpha 255. The header is read first
/// (`WebPGetFeatures`) and checked against the request's `ImageLimits` before pixel memory exists; libwebp's
/// incremental decoder then writes straight into the texture's pixels, a chunk of the file at a
/// time, checking `isCancelled` between chunks. A file that ends early or that libwebp rejects
/// throws ``WebPDecodeError``, never a partly decoded image.
public enum WebPDecoder: ImageDecoder {
    public static var identifier: String { "webp" }
    public static var fileExtensions: Set<String> { ["webp"] }
    /// The RIFF header and the first chunk's header and size fields (`VP8 `, `VP8L` or `VP8X`).
    public static var headerLength: Int { WebPHeader.length }
    /// A WebP's sides stop at 16383: `ImageLimits.webp`.
    public static var defaultLimits: ImageLimits { .webp }

    public static func matchesSignature(_ header: [UInt8]) -> Bool {
        WebPHeader.hasSignature(header)
    }

    /// The image's (or the animation canvas's) sides, read from the first chunk without libwebp.
    public static func estimatedSize(header: [UInt8], options: WebPLoaderSettings) -> ImageSize? {
        WebPHeader(header).map { ImageSize(width: $0.width, height: $0.height) }
    }

    /// The RIFF header's checks, then libwebp's reading of the bitstream's headers.
    public static func readHeader(_ file: UnsafeBufferPointer<UInt8>, options: WebPLoaderSettings) throws -> WebPFeatures {
        guard !file.isEmpty else { throw WebPDecodeError.emptyFile }
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
        return WebPFeatures(
            width: Int(features.width), height: Int(features.height), hasAlpha: features.has_alpha != 0,
            isAnimated: features.has_animation != 0, fileLength: declared)
    }

    /// RGBA8 of the image's (or the animation canvas's) sides; opaque unless it has alpha or
    /// is an animation.
    public static func size(of header: WebPFeatures, options: WebPLoaderSettings) -> ImageSize {
        ImageSize(width: header.width, height: header.height, isOpaque: !header.hasAlpha && !header.isAnimated)
    }

    /// Decodes the still image, or the animation's first frame onto its canvas, a chunk of
    /// the bitstream at a time.
    public static func decode(
        _ file: UnsafeBufferPointer<UInt8>, header: WebPFeatures, options: WebPLoaderSettings, into target: ImageDecodeTarget
    ) throws -> [AssetWarning] {
        let width = header.width, height = header.height
        var warnings: [AssetWarning] = []
        if header.isAnimated {
            try AnimationFirstFrame.withFirstFrame(of: file, canvasWidth: width, canvasHeight: height) { frame in
                if frame.frameCount > 1 {
                    warnings.append(
                        AssetWarning(
                            .webpAnimatedFirstFrame,
                            "animated WebP of \(frame.frameCount) frames on a \(width)x\(height) canvas: loaded the first frame only"))
                }
                try target.writePixels { buffer in
                    try frame.decode(
                        into: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), isCancelled: { target.isCancelled },
                        progress: target.reportProgress)
                }
            }
        } else {
            try target.writePixels { buffer in
                try IncrementalDecoding.decode(
                    file, height: height, into: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), stride: width * 4,
                    byteCount: buffer.count, isCancelled: { target.isCancelled }, progress: target.reportProgress)
            }
        }
        if file.count > header.fileLength {
            warnings.append(
                AssetWarning(.webpTrailingData, "\(file.count - header.fileLength) bytes after the RIFF chunk's end were ignored"))
        }
        return warnings
    }
}
