import Preload
import PreloadPNG

/// Reads an APNG's chunks into an ``APNGDocument``, checking what the APNG specification asks of
/// them: `acTL` once, before `IDAT`; sequence numbers of `fcTL` and `fdAT` counting from 0
/// without a gap or a repeat; every frame an `fcTL` followed by its image data, inside the canvas
/// (the specification forbids overhang); the default image's `fcTL` the size of IHDR at 0, 0;
/// as many frames as `acTL` promises.
///
/// A file without a valid `acTL` is not an animation (``APNGDocument/notAnimated`` says why): its
/// `fcTL` and `fdAT` chunks are not read, as an APNG reader ignores them. Damage in a file that
/// is one fails by name (``APNGError``).
struct APNGReader {
    private let bytes: [UInt8]
    private var document = APNGDocument()
    private var warnings: [AssetWarning] = []
    /// The sequence number the next `fcTL` or `fdAT` must have.
    private var nextSequence = 0
    /// The last chunk's type, to find `IDAT` chunks that are not consecutive.
    private var previous: UInt32 = 0

    /// Reads `bytes`, a whole PNG file.
    /// - Throws: ``APNGError`` or `TruncatedBytes` naming the chunk at fault.
    static func read(_ bytes: [UInt8]) throws -> (document: APNGDocument, warnings: [AssetWarning]) {
        var reader = APNGReader(bytes: bytes)
        let (chunks, endsWithIEND, walkWarnings) = try PNGChunkWalk.chunks(of: bytes)
        reader.warnings = walkWarnings
        guard let first = chunks.first, first.type == PNGChunk.IHDR else {
            throw APNGError.notPNG(detail: "the first chunk is \(chunks.first?.name ?? "missing"), not IHDR")
        }
        try reader.readHeader(first)
        try reader.readAnimationControl(chunks.dropFirst())
        for chunk in chunks.dropFirst() {
            try reader.read(chunk)
            reader.previous = chunk.type
        }
        try reader.finish(endsWithIEND: endsWithIEND)
        return (reader.document, reader.warnings)
    }

    private mutating func readHeader(_ chunk: PNGChunk) throws {
        guard chunk.data.count == 13 else { throw APNGError.malformed(detail: "IHDR has \(chunk.data.count) bytes, not 13") }
        let header = ByteReader(bytes)
        document.width = try number(header, at: chunk.data.lowerBound, "IHDR's width")
        document.height = try number(header, at: chunk.data.lowerBound + 4, "IHDR's height")
        guard document.width > 0, document.height > 0 else {
            throw APNGError.malformed(detail: "IHDR says the image is \(document.width)x\(document.height)")
        }
        document.header = Array(bytes[chunk.data])
    }

    private mutating func read(_ chunk: PNGChunk) throws {
        switch chunk.type {
        case PNGChunk.PLTE, PNGChunk.tRNS:
            document.sharedChunks.append(chunk)
        case PNGChunk.IDAT:
            if !document.defaultImage.isEmpty && previous != PNGChunk.IDAT {
                throw APNGError.malformed(detail: "an IDAT chunk at byte \(chunk.offset) after other chunks followed the image data")
            }
            document.defaultImage.append(chunk.data)
            if document.defaultImage.count == 1, var frame = document.frames.last {
                let control = frame.control
                guard control.width == document.width, control.height == document.height, control.x == 0, control.y == 0 else {
                    throw APNGError.malformed(
                        detail: "the default image's fcTL (sequence \(control.sequence)) is \(control.width)x\(control.height) "
                            + "at \(control.x), \(control.y); IHDR is \(document.width)x\(document.height) at 0, 0")
                }
                frame.isDefaultImage = true
                document.frames[document.frames.count - 1] = frame
            }
            if document.frames.last?.isDefaultImage == true { document.frames[document.frames.count - 1].data.append(chunk.data) }
        case PNGChunk.fcTL where document.notAnimated == nil:
            try readFrameControl(chunk)
        case PNGChunk.fdAT where document.notAnimated == nil:
            try readFrameData(chunk)
        default:
            break
        }
    }

    /// `acTL`'s frame count and plays, when it is valid: one `acTL`, before the first `IDAT`,
    /// of 8 bytes, promising 1 to 2^31 - 1 frames. Otherwise the file is a still image, and why.
    private mutating func readAnimationControl(_ chunks: ArraySlice<PNGChunk>) throws {
        let controls = chunks.filter { $0.type == PNGChunk.acTL }
        guard let chunk = controls.first else { return document.notAnimated = "it has no acTL" }
        let firstData = chunks.first { $0.type == PNGChunk.IDAT }?.offset ?? .max
        let reader = ByteReader(bytes)
        if controls.count > 1 {
            document.notAnimated = "it has \(controls.count) acTL chunks"
        } else if chunk.offset > firstData {
            document.notAnimated = "its acTL comes after the image data"
        } else if chunk.data.count != 8 {
            document.notAnimated = "its acTL has \(chunk.data.count) bytes, not 8"
        } else {
            let frames = Int(try reader.bigEndian(at: chunk.data.lowerBound, as: UInt32.self, "acTL's frame count"))
            let plays = Int(try reader.bigEndian(at: chunk.data.lowerBound + 4, as: UInt32.self, "acTL's play count"))
            if frames == 0 || frames > Int(Int32.max) {
                document.notAnimated = "its acTL's frame count is \(frames) (1 to 2^31 - 1)"
            } else if plays > Int(Int32.max) {
                document.notAnimated = "its acTL's play count is \(plays) (0 to 2^31 - 1)"
            } else {
                (document.promisedFrames, document.plays) = (frames, plays)
            }
        }
    }

    private mutating func readFrameControl(_ chunk: PNGChunk) throws {
        guard chunk.data.count == 26 else {
            throw APNGError.malformed(detail: "the fcTL chunk at byte \(chunk.offset) has \(chunk.data.count) bytes, not 26")
        }
        let reader = ByteReader(bytes), start = chunk.data.lowerBound
        let sequence = try checkSequence(chunk)
        let control = APNGDocument.FrameControl(
            sequence: sequence, width: try number(reader, at: start + 4, "fcTL's width"),
            height: try number(reader, at: start + 8, "fcTL's height"), x: try number(reader, at: start + 12, "fcTL's x offset"),
            y: try number(reader, at: start + 16, "fcTL's y offset"),
            delayNumerator: Int(try reader.bigEndian(at: start + 20, as: UInt16.self, "fcTL's delay numerator")),
            delayDenominator: Int(try reader.bigEndian(at: start + 22, as: UInt16.self, "fcTL's delay denominator")),
            dispose: bytes[start + 24], blend: bytes[start + 25])
        let frame = "frame \(document.frames.count) (fcTL sequence \(sequence))"
        if let last = document.frames.last, last.data.isEmpty {
            throw APNGError.malformed(detail: "frame \(document.frames.count - 1) (fcTL sequence \(last.control.sequence)) has no image data")
        }
        guard control.width > 0, control.height > 0 else {
            throw APNGError.malformed(detail: "\(frame) is \(control.width)x\(control.height)")
        }
        guard control.x + control.width <= document.width, control.y + control.height <= document.height else {
            throw APNGError.malformed(
                detail: "\(frame) is \(control.width)x\(control.height) at \(control.x), \(control.y): outside the "
                    + "\(document.width)x\(document.height) canvas (the APNG specification forbids overhanging frames)")
        }
        guard control.dispose <= 2, control.blend <= 1 else {
            throw APNGError.malformed(
                detail: "\(frame) has dispose_op \(control.dispose) and blend_op \(control.blend) (dispose 0 to 2, blend 0 or 1)")
        }
        document.frames.append(APNGDocument.Frame(control: control, isDefaultImage: false))
    }

    private mutating func readFrameData(_ chunk: PNGChunk) throws {
        guard chunk.data.count >= 4 else {
            throw APNGError.malformed(
                detail: "the fdAT chunk at byte \(chunk.offset) has \(chunk.data.count) bytes, fewer than its sequence number's 4")
        }
        let sequence = try checkSequence(chunk)
        guard !document.defaultImage.isEmpty else {
            throw APNGError.malformed(detail: "the fdAT chunk (sequence \(sequence)) at byte \(chunk.offset) comes before the image data (IDAT)")
        }
        guard let frame = document.frames.last, !frame.isDefaultImage else {
            throw APNGError.malformed(
                detail: "the fdAT chunk (sequence \(sequence)) at byte \(chunk.offset) comes before any fcTL of its own frame")
        }
        if !frame.data.isEmpty && previous != PNGChunk.fdAT {
            throw APNGError.malformed(detail: "frame \(document.frames.count - 1)'s fdAT chunks are not consecutive (sequence \(sequence))")
        }
        document.frames[document.frames.count - 1].data.append(chunk.data.lowerBound + 4..<chunk.data.upperBound)
    }

    /// The chunk's sequence number, which must be the next one.
    private mutating func checkSequence(_ chunk: PNGChunk) throws -> Int {
        let sequence = Int(try ByteReader(bytes).bigEndian(at: chunk.data.lowerBound, as: UInt32.self, "\(chunk.name)'s sequence number"))
        guard sequence == nextSequence else {
            throw APNGError.malformed(
                detail: "the \(chunk.name) chunk at byte \(chunk.offset) has sequence number \(sequence) where \(nextSequence) comes next "
                    + "(fcTL and fdAT chunks count from 0 without a gap or a repeat)")
        }
        nextSequence += 1
        return sequence
    }

    private mutating func finish(endsWithIEND: Bool) throws {
        guard !document.defaultImage.isEmpty else {
            throw endsWithIEND
                ? APNGError.malformed(detail: "there is no IDAT chunk") : APNGError.truncated(detail: "the file ends before any IDAT chunk")
        }
        guard document.notAnimated == nil else {
            document.frames = []
            return try endWarning(endsWithIEND)
        }
        if let last = document.frames.last, last.data.isEmpty {
            let detail = "frame \(document.frames.count - 1) (fcTL sequence \(last.control.sequence)) has no image data"
            throw endsWithIEND ? APNGError.malformed(detail: detail) : APNGError.truncated(detail: "the file ends before its IEND: " + detail)
        }
        let (promised, held) = (document.promisedFrames, document.frames.count)
        if held < promised {
            let detail = "acTL promises \(promised) frame\(promised == 1 ? "" : "s"); the file holds \(held)"
            throw endsWithIEND ? APNGError.malformed(detail: detail) : APNGError.truncated(detail: "the file ends before its IEND: " + detail)
        }
        if held > promised {
            warnings.append(
                AssetWarning(
                    .apngFrameCount,
                    "acTL promises \(promised) frame\(promised == 1 ? "" : "s"); the file holds \(held): the \(promised) promised loaded, "
                        + "as Pillow plays it"))
            document.frames.removeLast(held - promised)
        }
        try endWarning(endsWithIEND)
    }

    private mutating func endWarning(_ endsWithIEND: Bool) throws {
        if !endsWithIEND { warnings.append(AssetWarning(.pngNoEnd, "no IEND chunk; the image data is complete")) }
    }

    /// A PNG four-byte unsigned integer, at most 2^31 - 1.
    private func number(_ reader: ByteReader<[UInt8]>, at offset: Int, _ what: String) throws -> Int {
        let value = Int(try reader.bigEndian(at: offset, as: UInt32.self, what))
        guard value <= Int(Int32.max) else { throw APNGError.malformed(detail: "\(what) is \(value), past PNG's 2^31 - 1") }
        return value
    }
}
