import CPreloadPNG
import Preload

extension AssetWarning.Code {
    /// The PNG has no IEND chunk; its image data is complete and checked.
    public static let pngNoEnd: AssetWarning.Code = "png.no-iend"
    /// An ancillary chunk's CRC is wrong; libpng ignored the chunk.
    public static let pngAncillaryCRC: AssetWarning.Code = "png.ancillary-crc"
    /// Anything else libpng tolerated and warned about (an invalid or misplaced ancillary chunk,
    /// compressed data after the image's).
    public static let pngIrregular: AssetWarning.Code = "png.irregular"
}

/// The warnings a finished decode leaves on its libpng reader, as ``AssetWarning``s.
enum PNGWarnings {
    static func of(_ reader: OpaquePointer) -> [AssetWarning] {
        var warnings = AssetWarning.collected(
            count: Int(preload_png_warning_count(reader)), kept: Int(PRELOAD_PNG_MAX_WARNINGS), library: "libpng", rest: .pngIrregular
        ) { index in
            warning(libpng: String(cString: preload_png_warning(reader, Int32(index))))
        }
        if preload_png_missing_iend(reader) != 0 {
            warnings.append(AssetWarning(.pngNoEnd, "no IEND chunk; the image data is complete"))
        }
        return warnings
    }

    /// libpng words chunk warnings as "tEXt: CRC error".
    private static func warning(libpng text: String) -> AssetWarning {
        if text.hasSuffix(": CRC error"), let chunk = text.split(separator: ":").first {
            return AssetWarning(.pngAncillaryCRC, "ancillary chunk \(chunk) has a bad CRC; it was ignored")
        }
        return AssetWarning(.pngIrregular, "libpng: \(text)")
    }
}
