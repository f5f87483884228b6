import Preload

/// The chunks of an animated WebP, walked and checked without decoding: how many frames it has
/// and where its first frame's image data lies (the container format of Google's "WebP Container
/// Specification": RIFF chunks of a FourCC, a 32-bit little-endian size and a payload padded to
/// an even length).
///
/// An animation is a `VP8X` chunk with the animation flag, an `ANIM` chunk (background colour,
/// loop count), then one `ANMF` chunk per frame: 16 bytes of header (24-bit x/2, y/2,
/// width - 1, height - 1, duration, a flags byte) followed by the frame's own chunks, an optional
/// `ALPH` and then `VP8 ` or `VP8L`. Metadata chunks (`ICCP`, `EXIF`, `XMP `) and unknown ones are
/// skipped, as libwebp's demuxer skips them. This small walk stands in for libwebp's demuxer
/// (`libwebpdemux.so.2`), a second library that machines with libwebp's run-time library often
/// lack, for the one thing the plugin needs of it.
struct AnimationChunks {
    /// Frame 1: its place on the canvas and its image data.
    struct Frame {
        let x: Int, y: Int, width: Int, height: Int
        /// The frame's `ALPH` (if any) and `VP8 `/`VP8L` chunks, headers included: what libwebp's
        /// decoder takes for one frame.
        let bitstream: Range<Int>
    }

    let frameCount: Int
    let firstFrame: Frame

    /// Walks every chunk of `file` (whose RIFF header was checked) up to the RIFF chunk's end.
    /// - Throws: ``WebPDecodeError/corrupt(_:)`` naming the chunk that is cut short or malformed,
    ///   or an animation with no `ANIM` chunk before its frames, or with no frames.
    init(_ file: UnsafeBufferPointer<UInt8>) throws {
        var chunks = RIFFChunks(file, end: WebPHeader.riffSize(file) + 8)
        var frames = 0, sawAnim = false
        var first: Frame?
        while let chunk = try Self.next(&chunks) {
            switch chunk.id {
            case "ANIM":
                guard chunk.size >= 6 else { throw WebPDecodeError.corrupt("the ANIM chunk has \(chunk.size) bytes, not 6") }
                sawAnim = true
            case "ANMF":
                guard sawAnim else { throw WebPDecodeError.corrupt("frame \(frames + 1) comes before the ANIM chunk") }
                frames += 1
                if first == nil { first = try Self.frame(in: file, payload: chunk.payload, number: frames) }
            case "ALPH", "VP8 ", "VP8L":
                throw WebPDecodeError.corrupt("an animation holds a still image's \(chunk.id) chunk at byte \(chunk.offset)")
            default:
                break  // VP8X, metadata, unknown chunks
            }
        }
        guard let first else { throw WebPDecodeError.corrupt("an animation without frames") }
        frameCount = frames
        firstFrame = first
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

    /// Frame `number`'s header and image chunks, from its `ANMF` chunk's payload.
    private static func frame(in file: UnsafeBufferPointer<UInt8>, payload: Range<Int>, number: Int) throws -> Frame {
        guard payload.count >= 16 else {
            throw WebPDecodeError.corrupt("frame \(number)'s ANMF chunk has \(payload.count) bytes, fewer than its 16-byte header")
        }
        let reader = ByteReader(file)
        let field = { (index: Int) in try reader.littleEndian(at: payload.lowerBound + 3 * index, byteCount: 3, "frame \(number)'s ANMF header") }
        var chunks = RIFFChunks(file, from: payload.lowerBound + 16, end: payload.upperBound)
        var image = chunks.offset..<chunks.offset
        var hasAlpha = false
        while let chunk = try next(&chunks) {
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
        return Frame(x: try field(0) * 2, y: try field(1) * 2, width: try field(2) + 1, height: try field(3) + 1, bitstream: image)
    }

}
