import Preload

extension PNGDecoder {
    /// `keep16Bit` (`true` or `false`): ``PNGSettings/keepsSixteenBitSamples``, read between
    /// `alpha` and the limits by `ImageSettingsReader` (the `"png"` settings:
    /// `"png": {"alpha": "premultiplied", "keep16Bit": true, "maxWidth": 8192, "maxHeight": 8192, "maxDecodedMiB": 256}`).
    public static func readSettings(_ values: PluginSettingsValues, into settings: inout PNGSettings) throws {
        if let keep = try values.bool("keep16Bit") { settings.keepsSixteenBitSamples = keep }
    }
}
