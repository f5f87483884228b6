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
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(data), options: [.fragmentsAllowed])
        } catch {
            let cause = JSONSyntaxProblem.describe(error, in: data)
            throw AtlasError.notAnAtlas(file: file, detail: "not valid JSON (\(cause)); a JSON atlas is an object with \(keys)")
        }
        switch value {
        case let object as [String: Any] where object["frames"] != nil || object["textures"] != nil:
            return try read(data, file: file, files: files)
        case is [String: Any]: throw AtlasError.notAnAtlas(file: file, detail: "a JSON object without \(keys)")
        case is [Any]: throw AtlasError.notAnAtlas(file: file, detail: "a JSON array, where a JSON atlas is an object with \(keys)")
        default: throw AtlasError.notAnAtlas(file: file, detail: "a single JSON value, where a JSON atlas is an object with \(keys)")
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
        let json = try TexturePackerJSON(data, file: file, origin: isRoot ? nil : AssetPath.fileName(of: file), hashOrder: .name)
        for page in json.pages {
            if description.pages.isEmpty, page.fields.has("scale") {
                description.scale = try page.fields.double("scale")  // "1", "0.5" or 0.5: both forms occur
                guard description.scale > 0 else { throw page.fields.problem("'scale' must be above 0") }
            }
            description.pages.append(
                AtlasDescription.Page(
                    path: AssetPath.resolve(page.image, relativeTo: file), nameAsWritten: page.image,
                    declaredWidth: page.size?.width, declaredHeight: page.size?.height))
            let pageIndex = description.pages.count - 1
            if pageIndex == 0, page.form == .array { description.format = .texturePackerArray }
            // A hash's frames come by name, as the atlas has always listed them; a list keeps its order.
            description.frames += page.frames.map { $0.frame.onPage(pageIndex) }
        }
        guard !json.fields.has("textures"), let meta = json.meta else { return }
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
}

extension AtlasFrame {
    /// The frame on page `page` of the atlas (a related pack's first page follows the pages before).
    fileprivate func onPage(_ page: Int) -> AtlasFrame {
        page == self.page
            ? self
            : AtlasFrame(
                name: name, page: page, rect: rect, rotation: rotation, offsetX: offsetX, offsetY: offsetY, sourceWidth: sourceWidth,
                sourceHeight: sourceHeight, pivot: pivot, index: index, nineSlice: nineSlice)
    }
}
