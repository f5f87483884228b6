import Preload

/// The chunks of an animated WebP, walked and checked without decoding: its `ANIM` chunk's
/// background colour and loop count, and where each frame's `ANMF` chunk lies (the container
/// format of Google's "WebP Container Specification": RIFF chunks of a FourCC, a 32-bit
/// little-endian size and a payload padded to an even length, walked with Preload's one
/// `RIFFChunks`).
///
/// An animation is a `VP8X` chunk with the animation flag, an `ANIM` chunk (background colour,
/// loop count), then one `ANMF` chunk per frame: 16 bytes of header (24-bit x/2, y/2,
/// width - 1, height - 1, duration, a flags byte) followed by the frame's own chunks, an optional
/// `ALPH` and then `VP8 ` or `VP8L`. Metadata chunks (`ICCP`, `EXIF`, `XMP `) and unknown ones are
/// skipped, as libwebp's demuxer skips them. This walk stands in for libwebp's demuxer
/// (`libwebpdemux.so.2`), a second library that machines with libwebp's run-time library often
/// lack. ``WebPDecoder`` reads frame 1 of it; an animation loader reads every ``frame(_:in:)``.
///
/// ```swift
/// import PreloadWebP
///
/// func durations(of file: UnsafeBufferPointer<UInt8>) throws -> [Int] {
///     let chunks = try WebPAnimationChunks(file)
///     return try (0..<chunks.frameCount).map { try chunks.frame($0, in: file).durationMilliseconds }
/// }
/// ```
public struct WebPAnimationChunks: Sendable {
    /// One frame's `ANMF` header and where its image data lies.
    public struct Frame: Hashable, Sendable {
        /// The frame's left edge on the canvas (twice the header's field: always even).
        public let x: Int
        /// The frame's top edge on the canvas (always even).
        public let y: Int
        /// The frame's width in pixels.
        public let width: Int
        /// The frame's height in pixels.
        public let height: Int
        /// How long the frame shows, in milliseconds (the header's 24-bit field, as written).
        public let durationMilliseconds: Int
        /// Whether the frame is alpha-blended onto the canvas (flag bit 1 clear); otherwise its
        /// pixels replace the canvas's ("do not blend").
        public let blends: Bool
        /// Whether the frame's rectangle is cleared to transparent once it has shown (flag bit 0,
        /// "dispose to background"); otherwise it is left as drawn.
        public let disposesToBackground: Bool
        /// Whether an `ALPH` chunk precedes the frame's `VP8 ` chunk.
        public let hasAlphaChunk: Bool
        /// The frame's `ALPH` (if any) and `VP8 `/`VP8L` chunks, headers included: the chunks a
        /// still WebP of the frame holds.
        public let imageChunks: Range<Int>
    }

    /// How many `ANMF` chunks the file holds (at least 1).
    public let frameCount: Int
    /// The `ANIM` chunk's background colour as red, green, blue, alpha (the file stores it as
    /// blue, green, red, alpha). Players may ignore it: libwebp's animation decoder and browsers
    /// start from a transparent canvas.
    public let backgroundColor: [UInt8]
    /// How many times the animation plays (the `ANIM` chunk's loop count); 0 plays it forever.
    public let loopCount: Int
    /// Each frame's `ANMF` payload.
    private let payloads: [Range<Int>]

    /// Walks every chunk of `file` (an animated WebP whose RIFF header was checked) up to the
    /// RIFF chunk's end. Frames are only found here; ``frame(_:in:)`` reads one.
    /// - Throws: ``WebPDecodeError/corrupt(_:)`` naming the chunk that is cut short or malformed,
    ///   or an animation with no `ANIM` chunk before its frames, or with no frames.
    public init(_ file: UnsafeBufferPointer<UInt8>) throws {
        var chunks = RIFFChunks(file, end: WebPHeader.riffSize(file) + 8)
        var payloads = [Range<Int>]()
        var anim: Range<Int>?
        while let chunk = try Self.next(&chunks) {
            switch chunk.id {
            case "ANIM":
                guard chunk.size >= 6 else { throw WebPDecodeError.corrupt("the ANIM chunk has \(chunk.size) bytes, not 6") }
                if anim == nil { anim = chunk.payload }
            case "ANMF":
                guard anim != nil else { throw WebPDecodeError.corrupt("frame \(payloads.count + 1) comes before the ANIM chunk") }
                payloads.append(chunk.payload)
            case "ALPH", "VP8 ", "VP8L":
                throw WebPDecodeError.corrupt("an animation holds a still image's \(chunk.id) chunk at byte \(chunk.offset)")
            default:
                break  // VP8X, metadata, unknown chunks
            }
        }
        guard let anim, !payloads.isEmpty else { throw WebPDecodeError.corrupt("an animation without frames") }
        let colour = Array(file[anim.prefix(4)])
        backgroundColor = [colour[2], colour[1], colour[0], colour[3]]
        loopCount = Int(file[anim.lowerBound + 4]) | Int(file[anim.lowerBound + 5]) << 8
        frameCount = payloads.count
        self.payloads = payloads
    }

    /// Frame `index` (from 0, below ``frameCount``: another index is a programming error and
    /// traps): its `ANMF` header and image chunks, read from `file`, the bytes this walk was
    /// made from.
    /// - Throws: ``WebPDecodeError/corrupt(_:)`` for a header cut short, a chunk other than
    ///   `ALPH`, `VP8 ` or `VP8L` before the image, `ALPH` before a lossless image, no image.
    public func frame(_ index: Int, in file: UnsafeBufferPointer<UInt8>) throws -> Frame {
        precondition(payloads.indices.contains(index), "frame \(index) of an animation of \(frameCount)")
        let payload = payloads[index], number = index + 1
        guard payload.count >= 16 else {
            throw WebPDecodeError.corrupt("frame \(number)'s ANMF chunk has \(payload.count) bytes, fewer than its 16-byte header")
        }
        let reader = ByteReader(file)
        let field = { (index: Int) in try reader.littleEndian(at: payload.lowerBound + 3 * index, byteCount: 3, "frame \(number)'s ANMF header") }
        var chunks = RIFFChunks(file, from: payload.lowerBound + 16, end: payload.upperBound)
        var image = chunks.offset..<chunks.offset
        var hasAlpha = false
        while let chunk = try Self.next(&chunks) {
            switch chunk.id {
            case "ALPH" where !hasAlpha && image.isEmpty:
                hasAlpha = true
            case "VP8 ", "VP8L":
                guard !(hasAlpha && chunk.id == "VP8L") else {
                    throw WebPDecodeError.corrupt("frame \(number) has an ALPH chunk before a lossless image")
                }
                image = image.lowerBound..<chunk.payload.upperBound
            default:
                throw WebPDecodeError.corrupt("frame \(number) holds an unexpected \(chunk.id) chunk")
            }
            if !image.isEmpty { break }
        }
        guard !image.isEmpty else { throw WebPDecodeError.corrupt("frame \(number) has no VP8 or VP8L chunk") }
        let flags = file[payload.lowerBound + 15]
        return Frame(
            x: try field(0) * 2, y: try field(1) * 2, width: try field(2) + 1, height: try field(3) + 1,
            durationMilliseconds: try field(4), blends: flags & 0x02 == 0, disposesToBackground: flags & 0x01 != 0,
            hasAlphaChunk: hasAlpha, imageChunks: image)
    }

    /// Throws unless `frame`, frame `index` (from 0), lies inside a `canvasWidth` x
    /// `canvasHeight` canvas, as the container specification requires (libwebp's demuxer
    /// refuses the file otherwise).
    /// - Throws: ``WebPDecodeError/corrupt(_:)`` naming the frame, its rectangle and the canvas.
    public static func checkInsideCanvas(_ frame: Frame, index: Int, canvasWidth: Int, canvasHeight: Int) throws {
        guard frame.x + frame.width <= canvasWidth, frame.y + frame.height <= canvasHeight else {
            throw WebPDecodeError.corrupt(
                "frame \(index + 1) (\(frame.width)x\(frame.height) at \(frame.x),\(frame.y)) lies outside the \(canvasWidth)x\(canvasHeight) canvas")
        }
    }

    /// The next chunk of `chunks`, which must fit, padding aside, before the walk's end; nil at the end.
    private static func next<Bytes>(_ chunks: inout RIFFChunks<Bytes>) throws -> RIFFChunk? {
        guard let chunk = chunks.next() else {
            guard chunks.offset >= chunks.end else {
                let left = chunks.end - chunks.offset
                throw WebPDecodeError.corrupt("\(left) bytes at byte \(chunks.offset) are too few for a chunk header")
            }
            return nil
        }
        guard chunk.fits else {
            throw WebPDecodeError.corrupt(
                "the \(chunk.id) chunk at byte \(chunk.offset) declares \(chunk.size) bytes, past the RIFF chunk's end at byte \(chunks.end)")
        }
        return chunk
    }
}
