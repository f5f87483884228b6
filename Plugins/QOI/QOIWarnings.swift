import Preload

extension AssetWarning.Code {
    /// Every pixel decoded, but the eight bytes after the last one are not QOI's end marker
    /// (`0,0,0,0,0,0,0,1`): the file was cut inside it, or the marker is wrong.
    public static let qoiNoEndMarker: AssetWarning.Code = "qoi.no-end-marker"
    /// Bytes follow the end marker; they were ignored.
    public static let qoiTrailingData: AssetWarning.Code = "qoi.trailing-data"
    /// The last run op repeats its pixel past the end of the image; the extra pixels were dropped
    /// (as the reference decoder does).
    public static let qoiRunPastEnd: AssetWarning.Code = "qoi.run-past-end"
    /// The header's colour-space byte is neither 0 (sRGB) nor 1 (linear). It is informative
    /// only and does not change the pixels.
    public static let qoiUnknownColorspace: AssetWarning.Code = "qoi.unknown-colorspace"
}
