import CPreloadGIF
import Preload

/// Reads a GIF through giflib record by record (giflib decodes the LZW data and the colour
/// tables) and composites each frame on a ``FrameCanvas`` as the GIF89a specification and
/// browsers do: the canvas starts transparent, a frame draws over it (its transparent index
/// leaves the pixel under it), then its disposal method leaves it, clears it to transparent (2)
/// or restores what was there (3).
///
/// Sizes a hostile file could lie about are checked against ``ImageLimits`` before anything is
/// allocated for them: the logical screen, each frame, and the trimmed frames kept, with the
/// canvas, together. A frame's pixels outside the screen are decoded (to read past them) but never
/// stored.
struct GIFDecoder {
    /// What a GIF holds, composited.
    struct Decoded {
        /// The logical screen's width.
        var width: Int
        /// The logical screen's height.
        var height: Int
        /// Each frame as it shows on the screen (RGBA8, straight alpha), trimmed to its pixels
        /// with alpha as soon as it is drawn (the whole screen is not kept per frame).
        var frames: [FramePacking.Trim]
        /// How long each frame shows, in milliseconds.
        var durations: [Int]
        /// How many times the animation plays (``SpriteAnimation/loopCount``: 0 forever).
        var loopCount: Int
        /// What was passed over or read leniently.
        var warnings: [AssetWarning]
    }

    /// The next frame's Graphic Control Extension, as it applies to the frame.
    struct Control {
        var disposal = FrameCanvas.Disposal.keep
        var delayCentiseconds = 0
        var transparentIndex: Int?
    }

    /// A delay of 10 ms or less (0 or 1 centisecond) shows for 100 ms, as browsers show it.
    static let shortDelayMilliseconds = 100

    let library: GIFLibrary
    let gif: UnsafeMutablePointer<GifFileType>
    /// The bytes giflib reads, and how far it has read.
    let memory: UnsafeMutablePointer<PreloadGIFMemory>
    let limits: ImageLimits
    var decoded: Decoded
    var canvas: FrameCanvas
    var control = Control()
    /// The current frame's pixels inside the screen, RGBA8: one buffer for every frame.
    var framePixels: [UInt8] = []
    /// The bytes of the trimmed frames kept so far (counted against `ImageLimits.maxDecodedBytes`
    /// with the canvas and the frame being drawn).
    var keptBytes = 0
    /// The 1-based numbers of frames that reach past the screen, and of frames with an odd
    /// disposal, without a colour table, or using indexes past their table.
    var overhanging: [Int] = [], oddDisposals: [String] = [], uncoloured: [Int] = [], pastTable: [Int] = []
    /// Whether a NETSCAPE2.0 (or ANIMEXTS1.0) loop count was read.
    var loopCountRead = false

    /// The animation in the GIF `bytes`, its screen and frames checked against `limits`;
    /// `cancel` is called before each frame.
    /// - Throws: ``GIFError`` naming the cause, `MissingSystemLibrary` without giflib.
    static func decode(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits, cancel: () throws -> Void) throws -> Decoded {
        let library = try GIFLibrary.get()
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw GIFError.notGIF(detail: "the file is empty") }
        let signature = Array(bytes.prefix(6))
        let signatures = [Array("GIF87a".utf8), Array("GIF89a".utf8)]
        if signature.count < 6, signatures.contains(where: { $0.starts(with: signature) }) {
            throw GIFError.truncated(detail: "the file ends inside its signature (\(signature.count) of 6 bytes)")
        }
        guard signatures.contains(signature) else {
            let shown = String(decoding: signature.map { (32..<127).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            throw GIFError.notGIF(detail: "the file starts \"\(shown)\", not GIF87a or GIF89a")
        }
        var memory = PreloadGIFMemory(bytes: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, offset: 0)
        return try withUnsafeMutablePointer(to: &memory) { memory in
            var code: Int32 = 0
            guard let gif = library.openFile(memory, preload_gif_read, &code) else {
                throw failure(code, library, "its logical screen descriptor or global colour table", atEnd: memory.pointee.offset >= bytes.count)
            }
            defer { _ = library.close(gif, &code) }
            var decoder = try GIFDecoder(library: library, gif: gif, memory: memory, limits: limits)
            try decoder.readRecords(cancel: cancel)
            return decoder.finished()
        }
    }

    private init(
        library: GIFLibrary, gif: UnsafeMutablePointer<GifFileType>, memory: UnsafeMutablePointer<PreloadGIFMemory>, limits: ImageLimits
    ) throws {
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0 else { throw GIFError.malformed(detail: "the logical screen is \(width)x\(height), of no size") }
        guard width <= limits.maxWidth, height <= limits.maxHeight, width * height * 4 <= limits.maxDecodedBytes else {
            throw GIFError.tooLarge(detail: "the logical screen is \(width)x\(height), larger than the limit \(limits)")
        }
        self.library = library
        self.gif = gif
        self.memory = memory
        self.limits = limits
        decoded = Decoded(width: width, height: height, frames: [], durations: [], loopCount: 1, warnings: [])
        canvas = FrameCanvas(width: width, height: height)
    }

    /// The records up to the trailer: frames and the extensions before them.
    private mutating func readRecords(cancel: () throws -> Void) throws {
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard library.recordType(gif, &record) == PRELOAD_GIF_OK else {
                let code = gif.pointee.Error
                let frames = decoded.frames.count
                guard frames > 0, code == PRELOAD_D_GIF_ERR_READ_FAILED || code == PRELOAD_D_GIF_ERR_WRONG_RECORD else {
                    throw failure(frames == 0 ? "the record before any frame" : "the record after frame \(frames)")
                }
                let what =
                    code == PRELOAD_D_GIF_ERR_READ_FAILED
                    ? "the file ends after frame \(frames) without its trailer" : "a record of no known type follows frame \(frames)"
                decoded.warnings.append(AssetWarning(.gifTrailer, what + ": the \(frames) frames before it load"))
                return
            }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                try cancel()
                try readFrame()
            case EXTENSION_RECORD_TYPE:
                try readExtension()
            case TERMINATE_RECORD_TYPE:
                guard !decoded.frames.isEmpty else { throw GIFError.malformed(detail: "the file ends (its trailer) before any frame") }
                return
            default:
                throw GIFError.malformed(detail: "a record of no known type after frame \(decoded.frames.count)")
            }
        }
    }

    /// An extension: a Graphic Control Extension sets the next frame's disposal, delay and
    /// transparent index; NETSCAPE2.0's sub-block 1 the loop count; the rest is passed over.
    private mutating func readExtension() throws {
        let place = "an extension after frame \(decoded.frames.count)"
        var label: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard library.extensionStart(gif, &label, &block) == PRELOAD_GIF_OK else { throw failure(place) }
        var isLooping = false
        if label == PRELOAD_GIF_GRAPHICS_EXTENSION, let first = block {
            var fields = GraphicsControlBlock()
            if library.graphicsControl(Int(first[0]), first + 1, &fields) == PRELOAD_GIF_OK {
                control = Self.control(fields, &oddDisposals, frame: decoded.frames.count + 1)
            } else {
                decoded.warnings.append(
                    AssetWarning(
                        .gifGraphicControl,
                        "frame \(decoded.frames.count + 1)'s graphic control extension has \(first[0]) bytes, not 4: passed over"))
            }
        } else if label == PRELOAD_GIF_APPLICATION_EXTENSION, let first = block, first[0] == 11 {
            let identifier = String(decoding: UnsafeBufferPointer(start: first + 1, count: 11), as: UTF8.self)
            isLooping = identifier == "NETSCAPE2.0" || identifier == "ANIMEXTS1.0"
        }
        while block != nil {
            guard library.extensionNext(gif, &block) == PRELOAD_GIF_OK else { throw failure(place) }
            if isLooping, let sub = block, sub[0] >= 3, sub[1] == 1 {
                // The count of repeats after the first play: 0 repeats forever.
                let repeats = Int(sub[2]) | Int(sub[3]) << 8
                decoded.loopCount = repeats == 0 ? 0 : repeats + 1
                loopCountRead = true
            }
        }
    }

    /// A Graphic Control Extension's `fields` as they apply to frame `frame` (1-based); an
    /// undefined disposal method is noted in `odd`.
    static func control(_ fields: GraphicsControlBlock, _ odd: inout [String], frame: Int) -> Control {
        var control = Control(delayCentiseconds: Int(fields.DelayTime))
        control.transparentIndex = fields.TransparentColor >= 0 ? Int(fields.TransparentColor) : nil
        switch fields.DisposalMode {
        case 0, 1: control.disposal = .keep
        case 2: control.disposal = .clear
        case 3: control.disposal = .restorePrevious
        case 4:
            control.disposal = .restorePrevious
            odd.append("frame \(frame)'s 4 read as 3 (restore previous)")
        default:
            control.disposal = .keep
            odd.append("frame \(frame)'s \(fields.DisposalMode) read as 1 (leave in place)")
        }
        return control
    }

    /// The frames' durations, the warnings gathered, the animation.
    private mutating func finished() -> Decoded {
        var warnings = [AssetWarning]()
        func frames(_ numbers: [Int]) -> String {
            (numbers.count == 1 ? "frame " : "frames ") + numbers.prefix(8).map(String.init).joined(separator: ", ")
                + (numbers.count > 8 ? " and \(numbers.count - 8) more" : "")
        }
        if !overhanging.isEmpty {
            warnings.append(
                AssetWarning(
                    .gifFrameOutsideScreen,
                    "\(frames(overhanging)) reach\(overhanging.count == 1 ? "es" : "") past the \(decoded.width)x\(decoded.height) logical screen: the part outside is not drawn"
                ))
        }
        if !oddDisposals.isEmpty {
            warnings.append(AssetWarning(.gifDisposal, "undefined disposal methods: " + oddDisposals.joined(separator: ", ")))
        }
        if !uncoloured.isEmpty {
            warnings.append(
                AssetWarning(.gifNoColorTable, "\(frames(uncoloured)) ha\(uncoloured.count == 1 ? "s" : "ve") no colour table: shown as grays"))
        }
        if !pastTable.isEmpty {
            warnings.append(
                AssetWarning(
                    .gifIndexPastTable,
                    "\(frames(pastTable)) use\(pastTable.count == 1 ? "s" : "") colour indexes past the colour table: shown as black"))
        }
        decoded.warnings = warnings + decoded.warnings
        return decoded
    }

    /// giflib's error while reading `place`, as a ``GIFError``.
    func failure(_ place: String) -> GIFError {
        Self.failure(gif.pointee.Error, library, place, atEnd: memory.pointee.offset >= memory.pointee.count)
    }

    /// giflib's error `code` while reading `place`, as a ``GIFError``: a read that failed (or a
    /// failure giflib gives no code for, as when the LZW code size byte is missing) is truncation
    /// when the file is read to its end (`atEnd`), damage otherwise (giflib refuses a field, such
    /// as an LZW code size past 8, as a failed read).
    static func failure(_ code: Int32, _ library: GIFLibrary, _ place: String, atEnd: Bool) -> GIFError {
        switch code {
        case PRELOAD_D_GIF_ERR_NOT_GIF_FILE: return .notGIF(detail: "no GIF87a or GIF89a signature")
        case PRELOAD_D_GIF_ERR_READ_FAILED where atEnd, PRELOAD_D_GIF_ERR_NO_SCRN_DSCR where atEnd, 0 where atEnd:
            return .truncated(detail: "the file ends inside " + place)
        default: return .malformed(detail: "\(place): giflib: \(library.message(code))")
        }
    }
}
