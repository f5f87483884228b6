import Preload

/// The QOI loader plugin: claims `.qoi` files and any file that starts with `qoif`, and decodes
/// them in Swift into RGBA8 `Texture`s.
///
/// ```swift
/// import Preload
/// import PreloadQOI
///
/// let coordinator = try PreloadCoordinator(plugins: [QOILoader()])
/// ```
public struct QOILoader: LoaderPlugin {
    /// Options for requests that do not carry their own ``QOIDecodeOptions``.
    public var defaults: QOIDecodeOptions

    /// A QOI loader decoding with `defaults` where a request has no options of its own.
    public init(defaults: QOIDecodeOptions = QOIDecodeOptions()) {
        self.defaults = defaults
    }

    public var identifier: String { "qoi" }
    public var assetKind: AssetKind { .texture }
    public var fileExtensions: Set<String> { ["qoi"] }
    /// The whole header: signature, width, height, channels, colour space.
    public var headerLength: Int { QOIHeader.length }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        header.starts(with: QOIDecoder.signature)
    }

    /// `width * height * 4` from the header, when the header is valid and within the default
    /// limits (otherwise the load will fail, and the file's size is weight enough).
    public func estimatedDecodedBytes(header: [UInt8]) -> Int? {
        guard let parsed = QOIHeader(header), (try? parsed.validate(limits: defaults.limits)) != nil else { return nil }
        return parsed.decodedBytes
    }

    /// The options that apply to `request`: its own, or the plugin's defaults.
    public func options(for request: PlannedRequest) -> QOIDecodeOptions {
        request.options.contains(QOIDecodeOptions.self) ? request.options[QOIDecodeOptions.self] : defaults
    }

    /// Reads the file and decodes it into pooled memory, checking cancellation and reporting
    /// progress between chunks of pixels. What the file was forgiven (no end marker, bytes after
    /// it) becomes the asset's warnings.
    public func load(_ context: LoadContext) throws -> any Asset {
        try QOIDecoder.decode(
            try context.readContents(), options: options(for: context.request), memory: context.memory,
            isCancelled: { context.isCancelled },
            progress: { context.reportProgress($0) },
            warn: { try context.warn($0) })
    }
}
