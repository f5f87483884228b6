import Preload

extension JPEGDecoder {
    /// `exifOrientation` (`true` or `false`): ``JPEGSettings/appliesExifOrientation``, read
    /// between `alpha` and the limits by `ImageSettingsReader` (the `"jpeg"` settings:
    /// `"jpeg": {"exifOrientation": true, "maxWidth": 8192}`).
    public static func readSettings(_ values: PluginSettingsValues, into settings: inout JPEGSettings) throws {
        if let applies = try values.bool("exifOrientation") { settings.appliesExifOrientation = applies }
    }
}
