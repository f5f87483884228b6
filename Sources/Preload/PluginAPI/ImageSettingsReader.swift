/// Reads an image plugin's settings (`"png": {"alpha": "premultiplied", "maxWidth": 8192}`)
/// into its ``ImageLoaderSettings``: `alpha` (`"straight"`, `"premultiplied"`), the format's own
/// (``ImageDecoder/readSettings(_:into:)``: PNG's `keep16Bit`, JPEG's `exifOrientation`), then
/// `maxWidth`, `maxHeight` (pixels) and `maxDecodedMiB`. Its key is the format's identifier
/// (`png`, `jpeg`, `webp`, `qoi`): every ``ImageLoader`` is a ``ConfigurablePlugin`` with it.
public struct ImageSettingsReader<Codec: ImageDecoder>: PluginSettingsReader {
    /// A reader of `Codec`'s settings.
    public init() {}

    /// The format's identifier.
    public var key: String { Codec.identifier }

    /// Sets `options`' ``ImageLoaderSettings`` from the members given (those absent keep their
    /// values).
    public func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
        var image = options[ImageLoaderSettings<Codec>.self]
        if let alpha = try values.string("alpha", oneOf: ["straight", "premultiplied"]) { image.alphaMode = AlphaMode(rawValue: alpha)! }
        try Codec.readSettings(values, into: &image.settings)
        let width = try values.int("maxWidth", in: 1...Int(Int32.max)) ?? image.limits.maxWidth
        let height = try values.int("maxHeight", in: 1...Int(Int32.max)) ?? image.limits.maxHeight
        let bytes = try values.int("maxDecodedMiB", in: 1...(1 << 20)).map { $0 << 20 } ?? image.limits.maxDecodedBytes
        image.limits = ImageLimits(maxWidth: width, maxHeight: height, maxDecodedBytes: bytes)
        options[ImageLoaderSettings<Codec>.self] = image
    }
}

extension ImageLoader: ConfigurablePlugin {
    /// ``ImageSettingsReader``: `alpha`, the format's own settings and its limits, under the
    /// format's identifier.
    public var settingsReader: any PluginSettingsReader { ImageSettingsReader<Codec>() }
}
