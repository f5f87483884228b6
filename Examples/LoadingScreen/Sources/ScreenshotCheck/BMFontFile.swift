import Foundation

/// A bitmap font's AngelCode BMFont text file read by this check itself (its `common` line's line
/// height, its `page`, `char` and `kerning` lines), and a line of text drawn by BMFont's rules:
/// the pen starts at the line's top-left corner and moves right by each character's `xadvance`,
/// plus the kerning amount of the pair it makes with the character before; a glyph's rectangle
/// of its page goes at the pen moved by `xoffset` and `yoffset`.
struct BMFontFile {
    struct Glyph {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var xOffset: Int
        var yOffset: Int
        var xAdvance: Int
        var page: Int
    }

    /// Two characters in a row.
    struct Pair: Hashable, CustomStringConvertible {
        var first: Unicode.Scalar
        var second: Unicode.Scalar
        var description: String { "\"\(first)\(second)\"" }
    }

    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    let lineHeight: Int
    let pages: [Int: Image]
    let glyphs: [UInt32: Glyph]
    let kerning: [Pair: Int]

    init(file: String) throws {
        let folder = (file as NSString).deletingLastPathComponent
        var lineHeight: Int?
        var pages: [Int: Image] = [:], glyphs: [UInt32: Glyph] = [:], kerning: [Pair: Int] = [:]
        for (number, line) in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").enumerated() {
            let fields = Fields(line, place: "\(file), line \(number + 1)")
            switch line.prefix(while: { $0 != " " }) {
            case "common": lineHeight = try fields.int("lineHeight")
            case "page": pages[try fields.int("id")] = try Image.decode(file: folder + "/" + (try fields.string("file")))
            case "char":
                glyphs[UInt32(try fields.int("id"))] = Glyph(
                    x: try fields.int("x"), y: try fields.int("y"), width: try fields.int("width"), height: try fields.int("height"),
                    xOffset: try fields.int("xoffset"), yOffset: try fields.int("yoffset"), xAdvance: try fields.int("xadvance"),
                    page: try fields.int("page"))
            case "kerning":
                guard let first = Unicode.Scalar(try fields.int("first")), let second = Unicode.Scalar(try fields.int("second")) else { continue }
                kerning[Pair(first: first, second: second)] = try fields.int("amount")
            default: continue
            }
        }
        guard let lineHeight else { throw Unreadable(description: "\(file): no common line with a lineHeight") }
        (self.lineHeight, self.pages, self.glyphs, self.kerning) = (lineHeight, pages, glyphs, kerning)
    }

    /// The kerning pairs `string` makes, in order.
    func pairs(in string: String) -> [Pair] {
        let scalars = Array(string.unicodeScalars)
        return zip(scalars, scalars.dropFirst()).map { Pair(first: $0, second: $1) }.filter { kerning[$0] != nil }
    }

    /// `string` drawn on `canvas`, the pen starting at (`x`, `y`); each pair in `unkerned` drawn
    /// without its kerning (a mistake made on purpose, to prove the comparison notices it).
    func draw(_ string: String, on canvas: Image, x: Int, y: Int, unkerned: Set<Pair> = []) throws -> Image {
        var out = canvas
        var pen = x
        var previous: Unicode.Scalar?
        for scalar in string.unicodeScalars {
            guard let glyph = glyphs[scalar.value], let page = pages[glyph.page] else {
                throw Unreadable(description: "the font has no glyph for \"\(scalar)\"")
            }
            if let previous, case let pair = Pair(first: previous, second: scalar), !unkerned.contains(pair) { pen += kerning[pair] ?? 0 }
            let image = page.crop(x: glyph.x, y: glyph.y, width: glyph.width, height: glyph.height)
            out = out.blending(image, x: pen + glyph.xOffset, y: y + glyph.yOffset)
            pen += glyph.xAdvance
            previous = scalar
        }
        return out
    }
}
