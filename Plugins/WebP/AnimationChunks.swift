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
        let end = min(file.count, WebPHeader.riffSize(file) + 8)
        var offset = 12, frames = 0, sawAnim = false
        var first: Frame?
        while offset < end {
            let chunk = try Self.chunk(in: file, at: offset, end: end)
            switch chunk.name {
            case "ANIM":
                guard chunk.payload.count >= 6 else { throw WebPDecodeError.corrupt("the ANIM chunk has \(chunk.payload.count) bytes, not 6") }
                sawAnim = true
            case "ANMF":
                guard sawAnim else { throw WebPDecodeError.corrupt("frame \(frames + 1) comes before the ANIM chunk") }
                frames += 1
                if first == nil { first = try Self.frame(in: file, payload: chunk.payload, number: frames) }
            case "ALPH", "VP8 ", "VP8L":
                throw WebPDecodeError.corrupt("an animation holds a still image's \(chunk.name) chunk at byte \(offset)")
            default:
                break  // VP8X, metadata, unknown chunks
            }
            offset = chunk.next
        }
        guard let first else { throw WebPDecodeError.corrupt("an animation without frames") }
        frameCount = frames
        firstFrame = first
    }

    /// One chunk: its FourCC, its payload's range and where the next chunk starts.
    private struct Chunk {
        let name: String
        let payload: Range<Int>
        let next: Int
    }

    /// The chunk whose header starts at `offset`, which must fit, padding aside, before `end`.
    private static func chunk(in file: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int) throws -> Chunk {
        guard end - offset >= 8 else {
            throw WebPDecodeError.corrupt("\(end - offset) bytes at byte \(offset) are too few for a chunk header")
        }
        let name = String(decoding: file[offset..<offset + 4], as: UTF8.self)
        let size = littleEndian(file, at: offset + 4, count: 4)
        guard size <= end - offset - 8 else {
            throw WebPDecodeError.corrupt("the \(name) chunk at byte \(offset) declares \(size) bytes, past the RIFF chunk's end at byte \(end)")
        }
        let payload = offset + 8..<offset + 8 + size
        return Chunk(name: name, payload: payload, next: min(end, payload.upperBound + (size & 1)))
    }

    /// Frame `number`'s header and image chunks, from its `ANMF` chunk's payload.
    private static func frame(in file: UnsafeBufferPointer<UInt8>, payload: Range<Int>, number: Int) throws -> Frame {
        guard payload.count >= 16 else {
            throw WebPDecodeError.corrupt("frame \(number)'s ANMF chunk has \(payload.count) bytes, fewer than its 16-byte header")
        }
        let field = { littleEndian(file, at: payload.lowerBound + 3 * $0, count: 3) }
        var offset = payload.lowerBound + 16
        var image = offset..<offset
        var hasAlpha = false
        while offset < payload.upperBound {
            let chunk = try chunk(in: file, at: offset, end: payload.upperBound)
            switch chunk.name {
            case "ALPH" where !hasAlpha && image.isEmpty:
                hasAlpha = true
            case "VP8 ", "VP8L":
                guard !(hasAlpha && chunk.name == "VP8L") else {
                    throw WebPDecodeError.corrupt("frame \(number) has an ALPH chunk before a lossless image")
                }
                image = image.lowerBound..<chunk.payload.upperBound
            default:
                throw WebPDecodeError.corrupt("frame \(number) holds an unexpected \(chunk.name) chunk")
            }
            if !image.isEmpty { break }
            offset = chunk.next
        }
        guard !image.isEmpty else { throw WebPDecodeError.corrupt("frame \(number) has no VP8 or VP8L chunk") }
        return Frame(x: field(0) * 2, y: field(1) * 2, width: field(2) + 1, height: field(3) + 1, bitstream: image)
    }

    private static func littleEndian(_ file: UnsafeBufferPointer<UInt8>, at offset: Int, count: Int) -> Int {
        file[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
