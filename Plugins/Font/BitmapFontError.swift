import Preload

/// Why a bitmap font did not load, naming the glyph or page when there is one. The description
/// leaves out `file`, the descriptor (the coordinator's `AssetError` puts its path in front).
public enum BitmapFontError: AssetFailure, Equatable {
    /// The descriptor cannot be read as its encoding: a number that is not one, a required
    /// field or block missing, a binary block cut short.
    case malformed(file: String, detail: String)
    /// The file asked for as a bitmap font is not one in any BMFont encoding.
    case notAFont(file: String, detail: String)
    /// The descriptor is in a form this loader does not read (a binary version other than 3).
    case unsupported(file: String, detail: String)
    /// A glyph's rectangle reaches outside its page image.
    case glyphOutsidePage(file: String, glyph: Int64, page: String, pageWidth: Int, pageHeight: Int)
    /// A glyph is on a page the font does not have.
    case unknownPage(file: String, glyph: Int64, page: Int, pageCount: Int)

    public var category: AssetError.Category {
        switch self {
        case .malformed, .glyphOutsidePage, .unknownPage: .corrupt
        case .notAFont, .unsupported: .unsupported
        }
    }

    public var description: String {
        switch self {
        case .malformed(_, let detail): "malformed bitmap font: \(detail)"
        case .notAFont(_, let detail): "not a bitmap font: \(detail)"
        case .unsupported(_, let detail): "unsupported bitmap font: \(detail)"
        case .glyphOutsidePage(_, let glyph, let page, let width, let height):
            "glyph \(Self.name(glyph)) lies outside page \(AssetPath.fileName(of: page)) (\(width)x\(height))"
        case .unknownPage(_, let glyph, let page, let count):
            "glyph \(Self.name(glyph)) is on page \(page), but the font has \(count) page\(count == 1 ? "" : "s")"
        }
    }

    /// `65 ('A')`, or the bare number for ids that are not printable characters.
    static func name(_ id: Int64) -> String {
        guard id > 32, id < 0x11_0000, let scalar = Unicode.Scalar(UInt32(id)), !scalar.properties.isWhitespace else { return "\(id)" }
        return "\(id) ('\(Character(scalar))')"
    }
}
