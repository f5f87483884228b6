import CFreeType
import Preload

/// Why a TrueType or OpenType font did not load. FreeType's errors are named as FreeType's
/// headers name them (`FT_Err_Unknown_File_Format`), with its words for them: Debian's FreeType is
/// built without `FT_Error_String`, so the plugin reads both from FreeType's own error list.
public enum TrueTypeFontError: AssetFailure, Equatable {
    /// The file has no bytes.
    case emptyFile
    /// The file ends before a table its directory lists (FreeType would load the font without
    /// that table).
    case truncated(String)
    /// A FreeType function failed: `function` (`FT_New_Memory_Face`), FreeType's error `code`,
    /// and what it was doing (`character 65 ('A')`, or empty).
    case freeType(function: String, code: Int32, detail: String)
    /// The file is a collection without the face ``TrueTypeFontLoaderSettings/faceIndex`` asks for.
    case noSuchFace(index: Int, faceCount: Int)
    /// A size, a count or the pages' memory is over a limit (the options' or one of their
    /// largest values).
    case limitExceeded(String)
    /// An option is out of range.
    case invalidOption(String)
    /// A glyph FreeType renders in a form the plugin does not read (colour, LCD or 2- and 4-bit
    /// embedded bitmaps).
    case unsupportedGlyph(String)

    public var category: AssetError.Category {
        switch self {
        case .emptyFile, .truncated: .truncated
        case .freeType(_, let code, _):
            switch code & 0xFF {
            case 0x07, 0x12, 0x13: .unsupported  // Unimplemented_Feature, Invalid_Glyph_Format, Cannot_Render_Glyph
            case 0x40, 0x62: .limitExceeded  // Out_Of_Memory, Raster_Overflow
            default: .corrupt  // FreeType tells no font apart from a damaged one (often as a stream error)
            }
        case .noSuchFace: .corrupt
        case .limitExceeded: .limitExceeded
        case .invalidOption: .other
        case .unsupportedGlyph: .unsupported
        }
    }

    public var description: String {
        switch self {
        case .emptyFile: "empty file, not a font"
        case .truncated(let detail): "truncated font: \(detail)"
        case .freeType(let function, let code, let detail):
            "FreeType's \(function) failed\(detail.isEmpty ? "" : " for \(detail)"): \(Self.name(ofFreeTypeError: code))"
        case .noSuchFace(let index, let count):
            "the font has no face \(index): it holds \(count) face\(count == 1 ? "" : "s") (TrueTypeFontLoaderSettings.faceIndex)"
        case .limitExceeded(let detail): "font over a limit: \(detail)"
        case .invalidOption(let detail): "invalid TrueType font options: \(detail)"
        case .unsupportedGlyph(let detail): "unsupported glyph: \(detail)"
        }
    }

    /// `FT_Err_Unknown_File_Format (0x02: unknown file format)`, from FreeType's own list of its
    /// errors; a code it does not list is `FreeType error 0x...`.
    public static func name(ofFreeTypeError code: Int32) -> String {
        let hex = "0x" + (code < 16 ? "0" : "") + String(code, radix: 16, uppercase: true)
        guard let name = preload_ft_error_name(code), let message = preload_ft_error_message(code) else { return "FreeType error \(hex)" }
        return "\(String(cString: name)) (\(hex): \(String(cString: message)))"
    }
}
