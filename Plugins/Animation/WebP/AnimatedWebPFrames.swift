import Preload
import PreloadWebP

/// The frames of an animated WebP composited as libwebp's animation decoder composites them
/// (what Pillow and browsers show): each `ANMF` frame decoded as a still WebP by PreloadWebP's
/// public `WebPDecoder` and drawn on the package's one ``FrameCanvas`` at its offset,
/// alpha-blended in libwebp's integer form or replacing the canvas, then left or cleared to
/// transparent (libwebp and browsers ignore the `ANIM` background colour).
///
/// libwebp's demuxer (`libwebpdemux`, whose `WebPAnimDecoder` does this in C) is not on most
/// machines that have libwebp; the frames' chunks are found by PreloadWebP's
/// `WebPAnimationChunks` instead.
enum AnimatedWebPFrames {
    /// Every frame of `file` (an animated WebP: `features.isAnimated`) on a whole canvas of
    /// `features`' size, with its duration, and the animation's loop count.
    /// - Throws: `WebPDecodeError` naming the frame (outside the canvas, data that does
    ///   not decode or whose size is not the frame's), `ImageLimitExceeded` when the frames'
    ///   canvases together pass `limits`, or `CancellationError`.
    static func composite(
        _ file: UnsafeBufferPointer<UInt8>, features: WebPFeatures, limits: ImageLimits, cancel: () throws -> Void
    ) throws -> (canvases: [[UInt8]], durations: [Int], loopCount: Int) {
        let chunks = try WebPAnimationChunks(file)
        let width = features.width, height = features.height
        let (canvasBytes, overflow) = (width * height * 4).multipliedReportingOverflow(by: chunks.frameCount)
        guard !overflow, canvasBytes <= limits.maxDecodedBytes else {
            // The frames' canvases stacked: what the animation holds before its frames are packed.
            throw ImageLimitExceeded(size: ImageSize(width: width, height: height * chunks.frameCount), limits: limits)
        }
        var canvas = FrameCanvas(width: width, height: height)
        var canvases = [[UInt8]](), durations = [Int]()
        for index in 0..<chunks.frameCount {
            try cancel()
            let frame = try chunks.frame(index, in: file)
            try WebPAnimationChunks.checkInsideCanvas(frame, index: index, canvasWidth: width, canvasHeight: height)
            let pixels = try decode(frame, index: index, of: file)
            canvas.render(
                pixels, width: frame.width, height: frame.height, x: frame.x, y: frame.y,
                blend: frame.blends ? .overWebP : .replace, disposal: frame.disposesToBackground ? .clear : .keep
            ) { canvases.append($0) }
            durations.append(frame.durationMilliseconds)
        }
        return (canvases, durations, chunks.loopCount)
    }

    /// Frame `index`'s pixels (RGBA8, straight alpha): its image chunks made into a still WebP
    /// (a `VP8X` chunk declaring alpha first when an `ALPH` chunk is there) and decoded.
    private static func decode(_ frame: WebPAnimationChunks.Frame, index: Int, of file: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
        let image = UnsafeBufferPointer(rebasing: file[frame.imageChunks])
        let header = frame.hasAlphaChunk ? 18 : 0, padding = image.count & 1
        var still = [UInt8]()
        still.reserveCapacity(12 + header + image.count + padding)
        still += Array("RIFF".utf8) + littleEndian(4 + header + image.count + padding, 4) + Array("WEBP".utf8)
        if frame.hasAlphaChunk {
            still += Array("VP8X".utf8) + littleEndian(10, 4) + [0x10, 0, 0, 0]
            still += littleEndian(frame.width - 1, 3) + littleEndian(frame.height - 1, 3)
        }
        still += image
        still += repeatElement(0, count: padding)
        let texture: Texture
        do {
            texture = try WebPDecoder.decode(still)
        } catch let error as WebPDecodeError {
            throw Self.error(error, frame: index + 1)
        }
        guard texture.width == frame.width, texture.height == frame.height else {
            throw WebPDecodeError.corrupt(
                "frame \(index + 1) declares \(frame.width)x\(frame.height) but its image is \(texture.width)x\(texture.height)")
        }
        return texture.pixels.array
    }

    /// `value`'s `count` low bytes, least significant first.
    private static func littleEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// `error`, from decoding frame `number` on its own, saying which frame it came from.
    private static func error(_ error: WebPDecodeError, frame number: Int) -> WebPDecodeError {
        switch error {
        case .truncated(let detail): .truncated("frame \(number): \(detail)")
        case .corrupt(let detail): .corrupt("frame \(number): \(detail)")
        case .unsupported(let detail): .unsupported("frame \(number): \(detail)")
        case .tooLarge(let detail): .tooLarge("frame \(number): \(detail)")
        case .emptyFile, .notWebP: .corrupt("frame \(number) has no image data")
        case .outOfMemory: .outOfMemory
        }
    }
}
