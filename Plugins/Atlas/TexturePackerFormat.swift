import Foundation
import Preload

/// Reads TexturePacker's JSON dialects: hash (`frames` is an object keyed by name), array
/// (`frames` is a list of objects with `filename`), multipack sets (`meta.related_multi_packs`,
/// each file one page) and Phaser's multiatlas (`textures[]`, one entry per page).
///
/// A rotated frame is stored turned 90° clockwise; `frame.w`/`h` are its unrotated size, so it
/// occupies `h x w` in the page. `spriteSourceSize.x`/`y` place the trimmed content in the
/// original image (top-left origin), `sourceSize` is the original's size, `pivot` or `anchor`
/// is normalized to the original. Nine-slice `borders` come as a centre rectangle or as insets
/// (``NineSlice`` holds insets either way).
enum TexturePackerFormat {
    /// Whether `header` (the start of a file) looks like a TexturePacker or Phaser JSON atlas.
    static func matches(_ header: [UInt8]) -> Bool {
        guard firstCharacter(of: header) == UInt8(ascii: "{") else { return false }
        let text = String(decoding: header, as: UTF8.self)
        return text.contains("\"frames\"") || text.contains("\"textures\"")
    }

    /// Whether `header` starts as JSON does (an object or an array): a file no libGDX atlas is.
    static func looksLikeJSON(_ header: [UInt8]) -> Bool {
        firstCharacter(of: header) == UInt8(ascii: "{") || firstCharacter(of: header) == UInt8(ascii: "[")
    }

    /// The first byte that is not white space or a UTF-8 byte-order mark.
    private static func firstCharacter(of header: [UInt8]) -> UInt8? {
        header.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    }

    /// Reads `data`, a file asked for as an atlas that is JSON (or named `.json`) but did not
    /// show TexturePacker's keys in its header: read as TexturePacker's when its top level has
    /// `frames` or `textures` further in; otherwise ``AtlasError/notAnAtlas(file:detail:)``
    /// saying what it is (not valid JSON, an array, an object without those keys).
    static func readClaimed(_ data: [UInt8], file: String, files: AssetFiles) throws -> AtlasDescription {
        let keys = "\"frames\" or \"textures\" (TexturePacker's keys)"
        switch try? JSONSerialization.jsonObject(with: Data(data), options: [.fragmentsAllowed]) {
        case let object as [String: Any] where object["frames"] != nil || object["textures"] != nil:
            return try read(data, file: file, files: files)
        case is [String: Any]: throw AtlasError.notAnAtlas(file: file, detail: "a JSON object without \(keys)")
        case is [Any]: throw AtlasError.notAnAtlas(file: file, detail: "a JSON array, where a JSON atlas is an object with \(keys)")
        case .some: throw AtlasError.notAnAtlas(file: file, detail: "a single JSON value, where a JSON atlas is an object with \(keys)")
        case nil: throw AtlasError.notAnAtlas(file: file, detail: "not valid JSON, and a JSON atlas is an object with \(keys)")
        }
    }

    static func read(_ data: [UInt8], file: String, files: AssetFiles = .local) throws -> AtlasDescription {
        var description = AtlasDescription(file: file, format: .texturePackerHash, pages: [], frames: [])
        var visited: Set<String> = []
        try read(data, file: file, files: files, into: &description, visited: &visited)
        return description
    }

    private static func read(
        _ data: [UInt8], file: String, files: AssetFiles, into description: inout AtlasDescription, visited: inout Set<String>
    ) throws {
        let isRoot = visited.isEmpty
        visited.insert(AssetPath.normalized(file))
        let json = try JSONFields.parse(data, file: file, origin: isRoot ? nil : AssetPath.fileName(of: file))
        if json.has("textures") {
            guard let textures = json.values["textures"] as? [[String: Any]] else {
                throw json.problem("'textures' is not a list of objects")
            }
            for (index, texture) in textures.enumerated() {
                let page = json.child(texture, place: "textures[\(index)]")
                try readPage(page, framesIn: page, file: file, into: &description)
            }
            return
        }
        let meta = try json.object("meta")
        try readPage(meta, framesIn: json, file: file, into: &description)
        for related in meta.values["related_multi_packs"] as? [String] ?? [] {
            let other = AssetPath.resolve(related, relativeTo: file)
            guard !visited.contains(AssetPath.normalized(other)) else { continue }
            let bytes: [UInt8]
            do {
                bytes = try files.read(other).array
            } catch {
                let reason = (error as? AssetError)?.reason ?? "\(error)"
                throw AtlasError.malformed(file: file, detail: "related pack \(related): \(reason)")
            }
            try read(bytes, file: other, files: files, into: &description, visited: &visited)
        }
    }

    /// One page: its image and size from `page`, its frames from `framesIn["frames"]`.
    private static func readPage(_ page: JSONFields, framesIn container: JSONFields, file: String, into description: inout AtlasDescription) throws {
        // Frames of a multiatlas page live in the page's own object; others at the top level.
        let size = try page.optionalObject("size")
        if description.pages.isEmpty, page.has("scale") {
            description.scale = try page.double("scale")  // "1", "0.5" or 0.5: both forms occur
            guard description.scale > 0 else { throw page.problem("'scale' must be above 0") }
        }
        let image = try page.string("image")
        description.pages.append(
            AtlasDescription.Page(
                path: AssetPath.resolve(image, relativeTo: file), nameAsWritten: image,
                declaredWidth: try size?.int("w"), declaredHeight: try size?.int("h")))
        let pageIndex = description.pages.count - 1
        if let list = container.values["frames"] as? [[String: Any]] {
            if pageIndex == 0 { description.format = .texturePackerArray }
            for (position, values) in list.enumerated() {
                let name = try container.child(values, place: "frames[\(position)]").string("filename")
                description.frames.append(try frame(name, container.child(values, place: "frame '\(name)'"), page: pageIndex))
            }
        } else if let table = container.values["frames"] as? [String: Any] {
            for (name, values) in table.sorted(by: { $0.key < $1.key }) {
                guard let values = values as? [String: Any] else {
                    throw container.problem("frame '\(name)' is not an object")
                }
                description.frames.append(try frame(name, container.child(values, place: "frame '\(name)'"), page: pageIndex))
            }
        } else {
            throw container.problem("'frames' is missing or neither an object nor a list")
        }
    }

    private static func frame(_ name: String, _ fields: JSONFields, page: Int) throws -> AtlasFrame {
        let rect = try fields.object("frame")
        let width = try rect.int("w"), height = try rect.int("h")
        let rotated = try fields.bool("rotated", default: false)
        let placed = try fields.optionalObject("spriteSourceSize")
        let source = try fields.optionalObject("sourceSize")
        let pivot = try fields.optionalObject("pivot") ?? fields.optionalObject("anchor")
        return AtlasFrame(
            name: name, page: page,
            rect: PixelRect(x: try rect.int("x"), y: try rect.int("y"), width: rotated ? height : width, height: rotated ? width : height),
            rotation: rotated ? .clockwise : .none,
            offsetX: try placed?.int("x") ?? 0, offsetY: try placed?.int("y") ?? 0,
            sourceWidth: try source?.int("w") ?? width, sourceHeight: try source?.int("h") ?? height,
            pivot: try pivot.map { SIMD2(try $0.double("x"), try $0.double("y")) },
            nineSlice: try (fields.optionalObject("borders") ?? fields.optionalObject("scale9Borders")).map {
                try nineSlice($0, width: width, height: height)
            })
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
