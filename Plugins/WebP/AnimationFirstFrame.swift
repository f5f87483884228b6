import CPreloadWebP

/// The first frame of an animated WebP, as a player shows it: decoded onto a transparent canvas
/// of the animation's size at the frame's offset.
///
/// The first frame of an animation is a key frame: whatever its blend method, it is drawn over a
/// fully transparent canvas, which leaves its pixels as they are (libwebp's `WebPAnimDecoder`
/// writes them unblended too). So the frame decodes straight into the canvas rows at its offset
/// (the canvas row stride, external memory) and the rest of the canvas is cleared.
struct AnimationFirstFrame {
    /// The frame's `ALPH`/`VP8 ` or `VP8L` chunks, inside the file.
    let bitstream: UnsafeBufferPointer<UInt8>
    let x: Int, y: Int, width: Int, height: Int
    let canvasWidth: Int, canvasHeight: Int
    /// How many frames the animation has.
    let frameCount: Int

    /// Finds frame 1 of `file`, an animated WebP whose VP8X chunk declares a `canvasWidth` x
    /// `canvasHeight` canvas, and calls `body` with it (valid only during the call). Every chunk
    /// of the file is walked and checked first (``WebPAnimationChunks``), before `body` allocates
    /// any pixels.
    /// - Throws: ``WebPDecodeError`` (corrupt when a chunk runs past the RIFF chunk's end or an
    ///   animation chunk is malformed), or what `body` throws.
    static func withFirstFrame<Result>(
        of file: UnsafeBufferPointer<UInt8>, canvasWidth: Int, canvasHeight: Int,
        _ body: (AnimationFirstFrame) throws -> Result
    ) throws -> Result {
        let chunks = try WebPAnimationChunks(file)
        let first = try chunks.frame(0, in: file)
        try WebPAnimationChunks.checkInsideCanvas(first, index: 0, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        let frame = AnimationFirstFrame(
            bitstream: UnsafeBufferPointer(rebasing: file[first.imageChunks]),
            x: first.x, y: first.y, width: first.width, height: first.height,
            canvasWidth: canvasWidth, canvasHeight: canvasHeight, frameCount: chunks.frameCount)
        try frame.check()
        return try body(frame)
    }

    /// Throws unless the frame's bitstream has the frame's size.
    private func check() throws {
        var features = WebPBitstreamFeatures()
        let status = try WebPLibrary.get().features(bitstream.baseAddress, bitstream.count, &features)
        guard status == VP8_STATUS_OK else { throw WebPDecodeError(status: status, context: "in frame 1's headers") }
        guard Int(features.width) == width, Int(features.height) == height else {
            throw WebPDecodeError.corrupt("frame 1 declares \(width)x\(height) but its bitstream is \(features.width)x\(features.height)")
        }
    }

    /// Decodes the frame into `canvas` (RGBA8, tightly packed, `canvasWidth` x `canvasHeight`),
    /// clearing the pixels around it to transparent black.
    /// - Throws: ``WebPDecodeError`` or `CancellationError` (see ``IncrementalDecoding``).
    func decode(into canvas: UnsafeMutablePointer<UInt8>, isCancelled: () -> Bool, progress: (Double) -> Void) throws {
        let stride = canvasWidth * 4, canvasBytes = stride * canvasHeight
        if width != canvasWidth || height != canvasHeight {
            canvas.initialize(repeating: 0, count: canvasBytes)
        }
        let offset = y * stride + x * 4
        try IncrementalDecoding.decode(
            bitstream, height: height, into: canvas + offset, stride: stride, byteCount: canvasBytes - offset,
            isCancelled: isCancelled, progress: progress)
    }
}
