import Preload
import PreloadAtlas

/// What Aseprite's sheet export (`aseprite -b --sheet x.png --data x.json`) says, read from its
/// JSON: the frames on the sheet, their durations, the tags, and the sheet (`meta.image`).
///
/// The JSON is TexturePacker's shape, read by PreloadAtlas's `TexturePackerJSON` (both forms:
/// `frames` as an object keyed by frame name, `--format json-hash`, the frames in the order the
/// file writes them, or as an array, `--format json-array`; `frame`, `rotated`,
/// `spriteSourceSize`, `sourceSize`, `meta.image`, `meta.size`). What is Aseprite's is read
/// here: each frame's `duration`, `meta.frameTags`, and (``SheetSlices``) `meta.slices`. Lenient about structure (a missing optional member takes its default, an
/// unknown key is passed over), strict about data (``AsepriteError/malformed(detail:)`` names
/// the frame or tag and the cause).
struct AsepriteSheetFormat: Sendable {
    /// One frame of the export.
    struct Frame: Sendable {
        /// Where its pixels are on the sheet and on the canvas (``AtlasFrame/offsetX`` and
        /// ``AtlasFrame/offsetY`` in the ``AtlasFrame/sourceWidth`` x ``AtlasFrame/sourceHeight``
        /// canvas), and how they are turned.
        var frame: AtlasFrame
        var durationMilliseconds: Int
    }

    var frames: [Frame] = []
    var tags: [AnimationTag] = []
    var slices: [AnimationSlice] = []
    /// The sheet's path, as the JSON names it (relative to the JSON's folder).
    var image: String
    /// `meta.size`, when given: the sheet's size the frames were placed on.
    var sheetSize: (width: Int, height: Int)?
    /// Warnings reading the JSON gave (slices' and tags' properties not read).
    var warnings: [AssetWarning] = []

    /// The largest canvas side an export may declare (`sourceSize`), as PreloadAtlas allows a
    /// frame's original (PNG's default decoding limit).
    static let largestCanvasSide = 32768

    /// The export in `data`.
    static func read(_ data: [UInt8]) throws -> AsepriteSheetFormat {
        do {
            let json = try TexturePackerJSON(data, file: "")
            guard json.pages.count == 1, let meta = json.meta else {
                throw AsepriteError.malformed(detail: "a multiatlas (\(json.pages.count) pages in 'textures'), where an export has one sheet")
            }
            let page = json.pages[0]
            var sheet = AsepriteSheetFormat(image: page.image, sheetSize: page.size)
            sheet.frames = try page.frames.map(frame)
            sheet.tags = try meta.objects("frameTags").map { try tag($0, frameCount: sheet.frames.count) }
            (sheet.slices, sheet.warnings) = try SheetSlices.read(meta: meta)
            return sheet
        } catch AtlasError.malformed(_, let detail) {
            throw AsepriteError.malformed(detail: detail)
        }
    }

    /// A frame with its `duration` (100 ms when absent), its pixels inside its source size.
    private static func frame(_ entry: TexturePackerJSON.Frame) throws -> Frame {
        let frame = entry.frame, fields = entry.fields
        let (width, height) = (frame.contentWidth, frame.contentHeight)
        let (x, y, canvasWidth, canvasHeight) = (frame.offsetX, frame.offsetY, frame.sourceWidth, frame.sourceHeight)
        guard width >= 0, height >= 0, x >= 0, y >= 0, x <= canvasWidth - width, y <= canvasHeight - height else {
            throw fields.problem("its \(width)x\(height) pixels at (\(x), \(y)) are outside its \(canvasWidth)x\(canvasHeight) source size")
        }
        guard canvasWidth <= largestCanvasSide, canvasHeight <= largestCanvasSide else {
            throw fields.problem(
                "its source size, \(canvasWidth)x\(canvasHeight), is past \(largestCanvasSide)x\(largestCanvasSide)")
        }
        let duration = fields.has("duration") ? try fields.int("duration") : 100
        guard duration >= 0 else { throw fields.problem("a negative duration, \(duration) ms") }
        return Frame(frame: frame, durationMilliseconds: duration)
    }

    /// A `frameTags` entry: `name`, `from`, `to`, `direction` (forward unless given), `repeat`
    /// (a number or a string of one; forever unless given).
    private static func tag(_ fields: JSONFields, frameCount: Int) throws -> AnimationTag {
        let name = try fields.string("name"), from = try fields.int("from"), to = try fields.int("to")
        guard from >= 0, from <= to, to < frameCount else {
            throw fields.problem("tag '\(name)' runs from frame \(from) to \(to), past the \(frameCount) frames")
        }
        let direction: AnimationTag.Direction
        switch fields.has("direction") ? try fields.string("direction") : "forward" {
        case "forward": direction = .forward
        case "reverse": direction = .reverse
        case "pingpong": direction = .pingPong
        case "pingpong_reverse": direction = .pingPongReverse
        case let other: throw fields.problem("tag '\(name)': unknown direction '\(other)'")
        }
        var repeatCount = 0
        if let text = fields.values["repeat"] as? String {
            guard let count = Int(text), count >= 0 else { throw fields.problem("tag '\(name)': 'repeat' is not a count: '\(text)'") }
            repeatCount = count
        } else if fields.has("repeat") {
            repeatCount = try fields.int("repeat")
            guard repeatCount >= 0 else { throw fields.problem("tag '\(name)': a negative 'repeat', \(repeatCount)") }
        }
        return AnimationTag(
            name: name, from: from, to: to, direction: direction, repeatCount: repeatCount, userData: try SheetSlices.userData(fields))
    }
}
