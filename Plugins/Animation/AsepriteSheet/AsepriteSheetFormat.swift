import Foundation
import Preload
import PreloadAtlas

/// What Aseprite's sheet export (`aseprite -b --sheet x.png --data x.json`) says, read from its
/// JSON: the frames' rectangles on the sheet, their durations, the tags, and the sheet (`meta.image`).
///
/// Both forms load: `frames` as an object keyed by frame name (`--format json-hash`, frames in
/// the order the file writes them) or as an array (`--format json-array`). A frame's `frame` is
/// its pixels on the sheet; `rotated` (turned 90° clockwise, TexturePacker's convention, which
/// Aseprite never writes) stores them `h x w`; `spriteSourceSize` places them on the
/// `sourceSize` canvas. Lenient about structure (a missing optional field takes its default, an
/// unknown key is passed over), strict about data (``AsepriteError/malformed(detail:)`` names the frame
/// or tag and the cause).
struct AsepriteSheetFormat {
    /// One frame of the export.
    struct Frame {
        var name: String
        /// Where the stored pixels are on the sheet (`h x w` when ``rotated``).
        var sheetRect: PixelRect
        var rotated: Bool
        /// Where the (unrotated) pixels go on the canvas.
        var canvasOrigin: (x: Int, y: Int)
        var canvasWidth: Int
        var canvasHeight: Int
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

    /// Aseprite's web address, which its exports write as `meta.app`.
    static let app = "https://www.aseprite.org/"

    /// Whether `prefix` (a file's first bytes) is an Aseprite export with tags: a JSON object
    /// with `frames` and a `meta` holding `frameTags` (Aseprite writes `meta` after the frames;
    /// undecided until the prefix reaches it). An object whose first key is neither is not one. An export without tags is left to the atlas
    /// plugin, which loads it as a TexturePacker-style atlas, as before.
    static func signatureMatch(_ prefix: [UInt8]) -> SignatureMatch {
        guard var members = JSONMembers(prefix) else { return .differs }
        var hasFrames = false, hasTags = false, isFirst = true
        while let key = members.nextKey() {
            // Aseprite writes `frames` first (`meta` follows): other JSON is told apart at its first key.
            if isFirst, key != "frames", key != "meta" { return .differs }
            isFirst = false
            if key == "frames" { hasFrames = true }
            if key == "meta", var meta = members.nested() {
                while !hasTags, let inner = meta.nextKey() { hasTags = inner == "frameTags" }
                if !hasTags && meta.ranOut { return .undecided }
            }
            if hasFrames && hasTags { return .matches }
        }
        return members.ranOut ? .undecided : .differs
    }

    /// The export in `data` (its bytes are scanned again for the key order of a hash of frames).
    static func read(_ data: [UInt8]) throws -> AsepriteSheetFormat {
        let top: SheetFields
        do {
            guard let object = try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any] else {
                throw AsepriteError.malformed(detail: "the top level is not a JSON object")
            }
            top = SheetFields(values: object, place: "")
        } catch let error as AsepriteError {
            throw error
        } catch {
            throw AsepriteError.malformed(detail: "not valid JSON (\(error.localizedDescription))")
        }
        let meta = try top.optionalObject("meta") ?? SheetFields(values: [:], place: "'meta'")
        var sheet = AsepriteSheetFormat(image: try meta.string("image"))
        if let size = try meta.optionalObject("size") {
            sheet.sheetSize = (try size.int("w"), try size.int("h"))
        }
        switch top.values["frames"] {
        case let list as [Any]:
            for (index, value) in list.enumerated() {
                let fields = try top.element(value, place: "frame \(index)")
                let name = (fields.values["filename"] as? String) ?? "\(index)"
                sheet.frames.append(try frame(fields, name: name))
            }
        case let hash as [String: Any]:
            for name in orderedKeys(of: "frames", in: data, all: hash) {
                sheet.frames.append(try frame(try top.element(hash[name] as Any, place: "frame '\(name)'"), name: name))
            }
        default:
            throw AsepriteError.malformed(detail: "'frames' is missing, or neither an object nor an array")
        }
        for (index, value) in ((meta.values["frameTags"] as? [Any]) ?? []).enumerated() {
            sheet.tags.append(try tag(try meta.element(value, place: "tag \(index)"), frameCount: sheet.frames.count))
        }
        (sheet.slices, sheet.warnings) = try SheetSlices.read(meta: meta)
        return sheet
    }

    /// A frame object's fields: `frame` is required, the rest default to an untrimmed frame of
    /// 100 ms.
    private static func frame(_ fields: SheetFields, name: String) throws -> Frame {
        let rect = try fields.object("frame")
        let (width, height) = (try rect.int("w"), try rect.int("h"))
        let rotated = try fields.bool("rotated")
        let placed = try fields.optionalObject("spriteSourceSize")
        let source = try fields.optionalObject("sourceSize")
        let origin = (try placed?.int("x") ?? 0, try placed?.int("y") ?? 0)
        let canvas = (try source?.int("w") ?? width, try source?.int("h") ?? height)
        guard width >= 0, height >= 0, origin.0 >= 0, origin.1 >= 0, origin.0 <= canvas.0 - width, origin.1 <= canvas.1 - height else {
            throw AsepriteError.malformed(
                detail:
                    "\(fields.place): its \(width)x\(height) pixels at (\(origin.0), \(origin.1)) are outside its \(canvas.0)x\(canvas.1) source size"
            )
        }
        let duration = fields.values["duration"] == nil ? 100 : try fields.int("duration")
        guard duration >= 0 else { throw AsepriteError.malformed(detail: "\(fields.place): a negative duration, \(duration) ms") }
        return Frame(
            name: name,
            sheetRect: PixelRect(x: try rect.int("x"), y: try rect.int("y"), width: rotated ? height : width, height: rotated ? width : height),
            rotated: rotated, canvasOrigin: origin, canvasWidth: canvas.0, canvasHeight: canvas.1, durationMilliseconds: duration)
    }

    /// A `frameTags` entry: `name`, `from`, `to`, `direction` (forward unless given), `repeat`
    /// (a number or a string of one; forever unless given).
    private static func tag(_ fields: SheetFields, frameCount: Int) throws -> AnimationTag {
        let name = try fields.string("name"), from = try fields.int("from"), to = try fields.int("to")
        guard from >= 0, from <= to, to < frameCount else {
            throw AsepriteError.malformed(detail: "tag '\(name)' runs from frame \(from) to \(to), past the \(frameCount) frames")
        }
        let direction: AnimationTag.Direction
        switch fields.values["direction"] as? String ?? "forward" {
        case "forward": direction = .forward
        case "reverse": direction = .reverse
        case "pingpong": direction = .pingPong
        case "pingpong_reverse": direction = .pingPongReverse
        case let other: throw AsepriteError.malformed(detail: "tag '\(name)': unknown direction '\(other)'")
        }
        var repeatCount = 0
        if let text = fields.values["repeat"] as? String {
            guard let count = Int(text), count >= 0 else {
                throw AsepriteError.malformed(detail: "tag '\(name)': 'repeat' is not a count: '\(text)'")
            }
            repeatCount = count
        } else if fields.values["repeat"] != nil {
            repeatCount = try fields.int("repeat")
            guard repeatCount >= 0 else { throw AsepriteError.malformed(detail: "tag '\(name)': a negative 'repeat', \(repeatCount)") }
        }
        return AnimationTag(
            name: name, from: from, to: to, direction: direction, repeatCount: repeatCount, userData: try SheetSlices.userData(fields))
    }

    /// The keys of the top-level object `key` in document order (`JSONSerialization` forgets
    /// it); any key the scan missed follows, sorted.
    private static func orderedKeys(of key: String, in data: [UInt8], all: [String: Any]) -> [String] {
        var written = [String](), seen = Set<String>()
        if var members = JSONMembers(data) {
            while let next = members.nextKey() {
                guard next == key else { continue }
                if var inner = members.nested() {
                    while let name = inner.nextKey() {
                        if all[name] != nil && seen.insert(name).inserted { written.append(name) }
                    }
                }
                break
            }
        }
        return written + all.keys.filter { !seen.contains($0) }.sorted()
    }
}

/// A JSON object's fields, read with errors naming where they are (`frame 'hero 0.aseprite':
/// 'frame': 'w' is missing or not a number`).
struct SheetFields {
    let values: [String: Any]
    let place: String

    func element(_ value: Any, place: String) throws -> SheetFields {
        guard let object = value as? [String: Any] else { throw AsepriteError.malformed(detail: "\(place) is not an object") }
        return SheetFields(values: object, place: place)
    }

    func object(_ key: String) throws -> SheetFields {
        guard let object = values[key] as? [String: Any] else { throw problem("'\(key)' is missing or not an object") }
        return SheetFields(values: object, place: place.isEmpty ? "'\(key)'" : "\(place): '\(key)'")
    }

    func optionalObject(_ key: String) throws -> SheetFields? {
        values[key] == nil || values[key] is NSNull ? nil : try object(key)
    }

    func string(_ key: String) throws -> String {
        guard let string = values[key] as? String else { throw problem("'\(key)' is missing or not a string") }
        return string
    }

    /// A whole number (`2.0` counts), within ±2^31.
    func int(_ key: String) throws -> Int {
        guard let number = values[key] as? NSNumber, String(cString: number.objCType) != "c" else {
            throw problem("'\(key)' is missing or not a number")
        }
        let double = number.doubleValue
        guard double.rounded() == double, abs(double) <= Double(Int32.max) else { throw problem("'\(key)' is not a whole number: \(double)") }
        return Int(double)
    }

    /// A boolean, `false` when missing.
    func bool(_ key: String) throws -> Bool {
        guard let value = values[key], !(value is NSNull) else { return false }
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else { throw problem("'\(key)' is not true or false") }
        return number.boolValue
    }

    func problem(_ detail: String) -> AsepriteError {
        .malformed(detail: place.isEmpty ? detail : "\(place): \(detail)")
    }
}
