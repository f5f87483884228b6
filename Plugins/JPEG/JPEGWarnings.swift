import CPreloadJPEG
import Preload

extension AssetWarning.Code {
    /// The file's EXIF orientation is not 1 (upright as stored) and the decode left the pixels
    /// as stored, because ``JPEGSettings/appliesExifOrientation`` is off.
    public static let jpegExifOrientation: AssetWarning.Code = "jpeg.exif-orientation"
    /// Bytes that belong to no segment sat between two header segments; libjpeg skipped them.
    public static let jpegExtraneousBytes: AssetWarning.Code = "jpeg.extraneous-bytes"
    /// Anything else libjpeg tolerated and warned about: an unknown Adobe colour transform code
    /// (read as YCbCr, or YCCK for four components, as every decoder reads it), an unknown JFIF
    /// revision.
    public static let jpegIrregular: AssetWarning.Code = "jpeg.irregular"
}

/// The warnings a finished decode leaves on its libjpeg reader, as ``AssetWarning``s.
enum JPEGWarnings {
    static func of(_ reader: OpaquePointer) -> [AssetWarning] {
        AssetWarning.collected(
            count: Int(preload_jpeg_warning_count(reader)), kept: Int(PRELOAD_JPEG_MAX_WARNINGS), library: "libjpeg", rest: .jpegIrregular
        ) { index in
            let text = String(cString: preload_jpeg_warning(reader, Int32(index)))
            return switch UInt32(preload_jpeg_warning_kind_at(reader, Int32(index))) {
            case PRELOAD_JPEG_WARNING_EXTRANEOUS_BYTES.rawValue:
                AssetWarning(.jpegExtraneousBytes, "libjpeg skipped bytes between header segments (\(text))")
            default:
                AssetWarning(.jpegIrregular, "libjpeg: \(text)")
            }
        }
    }

    /// The warning for a file whose orientation the decode did not apply.
    static func orientationNotApplied(_ orientation: ExifOrientation) -> AssetWarning {
        AssetWarning(
            .jpegExifOrientation,
            "EXIF orientation \(orientation.rawValue) (\(orientation.meaning)) not applied: the pixels are as stored "
                + "(JPEGLoaderSettings.appliesExifOrientation turns them upright)")
    }
}
