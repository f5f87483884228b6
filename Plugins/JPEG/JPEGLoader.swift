import Preload

/// The JPEG loader plugin: claims `.jpg`, `.jpeg`, `.jpe` and `.jfif` files and any file that
/// starts with the JPEG SOI marker, and decodes them with libjpeg-turbo into RGBA8 `Texture`s.
///
/// ```swift
/// import Preload
/// import PreloadJPEG
///
/// let coordinator = try PreloadCoordinator(plugins: [JPEGLoader()])
/// ```
public struct JPEGLoader: LoaderPlugin {
    /// Options for requests that do not carry their own ``JPEGDecodeOptions``.
    public var defaults: JPEGDecodeOptions

    /// A JPEG loader decoding with `defaults` where a request has no options of its own.
    public init(defaults: JPEGDecodeOptions = JPEGDecodeOptions()) {
        self.defaults = defaults
    }

    public var identifier: String { "jpeg" }
    public var assetKind: AssetKind { .texture }
    public var fileExtensions: Set<String> { ["jpg", "jpeg", "jpe", "jfif"] }
    /// Enough to find the frame header (SOF) after the usual metadata segments (JFIF, EXIF
    /// without a large thumbnail, quantization tables); a file whose SOF comes later is weighed
    /// by its size.
    public var headerLength: Int { 16 * 1024 }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        header.starts(with: JPEGDecoder.signature)
    }

    public func estimatedDecodedBytes(header: [UInt8]) -> Int? {
        JPEGHeader(header)?.decodedBytes
    }

    /// The options that apply to `request`: its own, or the plugin's defaults.
    public func options(for request: PlannedRequest) -> JPEGDecodeOptions {
        request.options.contains(JPEGDecodeOptions.self) ? request.options[JPEGDecodeOptions.self] : defaults
    }

    /// Reads the file and decodes it (into pooled memory when large), checking cancellation
    /// and reporting progress between chunks of rows. What the file was forgiven (an EXIF
    /// orientation not applied, junk between segments) becomes the asset's warnings.
    public func load(_ context: LoadContext) throws -> any Asset {
        try JPEGDecoder.decode(
            try context.readContents(), options: options(for: context.request), memory: context.memory,
            isCancelled: { context.isCancelled },
            progress: { context.reportProgress($0) },
            warn: { try context.warn($0) })
    }
}
