import Preload

/// One TexturePacker-style JSON document, read once: the shape TexturePacker, Aseprite's sheet
/// export, Phaser, PixiJS and Free Texture Packer write. ``AtlasLoader`` loads it as a
/// ``TextureAtlas``; a plugin for a format built on it reads it here and adds only its own keys
/// (Aseprite's: each frame's `duration`, `meta.frameTags`).
///
/// `frames` is an object keyed by frame name (the hash form) or a list of objects naming
/// themselves with `filename` (the array form). A frame's `frame` is its rectangle on the page;
/// `rotated` says it is stored turned 90° clockwise (`h x w` on the page); `spriteSourceSize`
/// places the trimmed pixels in the original, of `sourceSize`; `pivot` (or `anchor`) and
/// nine-slice `borders` (or `scale9Borders`) are read too. The page is `meta.image`, of
/// `meta.size`. A Phaser multiatlas (`textures`: pages each with its own `image`, `size` and
/// `frames`) reads as one page per entry.
///
/// What the reading passes over stays at hand: each frame's object (``Frame/fields``), each
/// page's (``Page/fields``: `meta`, or the `textures` entry) and the document's (``fields``).
/// Lenient about structure (an optional member that is absent takes its default; unknown keys
/// are kept, not refused), strict about data: ``AtlasError/malformed(file:detail:)`` names the
/// frame and the member.
///
/// ```swift
/// import PreloadAtlas
///
/// let text = #"{"frames": {"run 0": {"frame": {"x": 0, "y": 0, "w": 16, "h": 16}, "duration": 80}}, "meta": {"image": "run.png"}}"#
/// let json = try TexturePackerJSON(Array(text.utf8), file: "run.json")
/// for frame in json.pages[0].frames {
///     print(frame.frame.name, frame.frame.rect, try frame.fields.int("duration"))
/// }
/// ```
public struct TexturePackerJSON {
    /// How a page lists its frames.
    public enum Form: Sendable {
        /// `frames` is an object keyed by frame name (TexturePacker's "JSON (Hash)").
        case hash
        /// `frames` is a list of objects, each naming itself with `filename` ("JSON (Array)").
        case array
    }

    /// One entry of a page's `frames`.
    public struct Frame {
        /// Its name, rectangle, rotation, trim, original size, pivot and nine-slice, in the atlas
        /// model; its ``AtlasFrame/page`` is its page's index in ``TexturePackerJSON/pages``.
        public let frame: AtlasFrame
        /// Its object, with the members the atlas model passes over (Aseprite's `duration`).
        public let fields: JSONFields
    }

    /// One page: an image and the frames on it.
    public struct Page {
        /// The image, as the document writes it (relative to the document's folder, usually).
        public let image: String
        /// The image's size the frames were placed on, when the document gives it (`size`).
        public let size: (width: Int, height: Int)?
        /// How the page lists its frames.
        public let form: Form
        /// The frames in the order the document writes them, in either form.
        public let frames: [Frame]
        /// The object describing the page: `meta`, or a multiatlas's `textures` entry.
        public let fields: JSONFields
    }

    /// The pages: one (`meta`'s), or one per `textures` entry of a multiatlas.
    public let pages: [Page]
    /// The document's `meta`, when it has one (a multiatlas may not): the members beyond `image`
    /// and `size` (`scale`, `related_multi_packs`, Aseprite's `frameTags` and `slices`).
    public let meta: JSONFields?
    /// The document's top-level object.
    public let fields: JSONFields

    /// Reads `data`, a whole document; `file` names it in errors.
    /// - Throws: ``AtlasError/malformed(file:detail:)`` naming the frame and member at fault, or
    ///   saying the text is not a JSON object.
    public init(_ data: [UInt8], file: String) throws {
        try self.init(data, file: file, origin: nil, hashOrder: .document)
    }

    /// In which order a hash's frames are read: as the document writes them (its keys scanned
    /// with `JSONMembers`, as `JSONSerialization` forgets it), or by name, which the atlas lists
    /// them in and needs no scan for.
    enum HashOrder {
        case document, name
    }

    /// Reads `data`; `origin` names the file in messages when it is not the one asked for (a
    /// related pack).
    init(_ data: [UInt8], file: String, origin: String?, hashOrder: HashOrder) throws {
        fields = try JSONFields.parse(data, file: file, origin: origin)
        if fields.has("textures") {
            pages = try fields.objects("textures").enumerated().map { index, page in try Self.page(page, framesIn: page, index: index) }
            meta = try? fields.optionalObject("meta")
        } else {
            let meta = try fields.object("meta")
            // Only the top level's keys are scanned for their order: a multiatlas lists its frames.
            let order = hashOrder == .document && fields.values["frames"] is [String: Any] ? JSONMembers.keys(in: data, at: ["frames"]) : []
            pages = [try Self.page(meta, framesIn: fields, index: 0, order: order)]
            self.meta = meta
        }
    }

    /// One page: its image and size from `page`, its frames from `container`'s `frames`, a hash
    /// of them in `order` (names it misses follow, sorted).
    private static func page(_ page: JSONFields, framesIn container: JSONFields, index: Int, order: [String] = []) throws -> Page {
        let size = try page.optionalObject("size")
        let image = try page.string("image")
        let declared = try size.map { (width: try $0.int("w"), height: try $0.int("h")) }
        var frames: [Frame] = []
        let form: Form
        if let list = container.values["frames"] as? [[String: Any]] {
            form = .array
            for (position, values) in list.enumerated() {
                let name = try container.child(values, place: "frames[\(position)]").string("filename")
                frames.append(try frame(name, container.child(values, place: "frame '\(name)'"), page: index))
            }
        } else if let table = container.values["frames"] as? [String: Any] {
            form = .hash
            var seen = Set<String>()
            let written = order.filter { table[$0] != nil && seen.insert($0).inserted }
            for name in written + table.keys.filter({ !seen.contains($0) }).sorted() {
                guard let values = table[name] as? [String: Any] else {
                    throw container.problem("frame '\(name)' is not an object")
                }
                frames.append(try frame(name, container.child(values, place: "frame '\(name)'"), page: index))
            }
        } else {
            throw container.problem("'frames' is missing or neither an object nor a list")
        }
        return Page(image: image, size: declared, form: form, frames: frames, fields: page)
    }

    private static func frame(_ name: String, _ fields: JSONFields, page: Int) throws -> Frame {
        let rect = try fields.object("frame")
        let width = try rect.int("w"), height = try rect.int("h")
        let rotated = try fields.bool("rotated", default: false)
        let placed = try fields.optionalObject("spriteSourceSize")
        let source = try fields.optionalObject("sourceSize")
        let pivot = try fields.optionalObject("pivot") ?? fields.optionalObject("anchor")
        let frame = AtlasFrame(
            name: name, page: page,
            rect: PixelRect(x: try rect.int("x"), y: try rect.int("y"), width: rotated ? height : width, height: rotated ? width : height),
            rotation: rotated ? .clockwise : .none,
            offsetX: try placed?.int("x") ?? 0, offsetY: try placed?.int("y") ?? 0,
            sourceWidth: try source?.int("w") ?? width, sourceHeight: try source?.int("h") ?? height,
            pivot: try pivot.map { SIMD2(try $0.double("x"), try $0.double("y")) },
            nineSlice: try (fields.optionalObject("borders") ?? fields.optionalObject("scale9Borders")).map {
                try nineSlice($0, width: width, height: height)
            })
        return Frame(frame: frame, fields: fields)
    }

    /// Nine-slice borders in either shape exporters write: the stretchable centre as a
    /// rectangle `{x, y, w, h}` (TexturePacker's generic and Phaser exporters), or the insets
    /// `{left, top, right, bottom}` (its PixiJS exporter, as PixiJS reads them).
    private static func nineSlice(_ borders: JSONFields, width: Int, height: Int) throws -> NineSlice {
        if ["left", "top", "right", "bottom"].contains(where: borders.has) {
            return NineSlice(
                left: try borders.int("left"), right: try borders.int("right"), top: try borders.int("top"),
                bottom: try borders.int("bottom"))
        }
        let x = try borders.int("x"), y = try borders.int("y")
        return NineSlice(left: x, right: width - x - (try borders.int("w")), top: y, bottom: height - y - (try borders.int("h")))
    }
}
