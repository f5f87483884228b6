import Preload

/// The WebP loader plugin: claims `.webp` files and any file that starts with a RIFF header of
/// form `WEBP`, and decodes them with libwebp into `Texture`s (an animation: its first frame,
/// with a warning).
///
/// ```swift
/// import Preload
/// import PreloadWebP
///
/// let coordinator = try PreloadCoordinator(plugins: [WebPLoader()])
/// ```
public struct WebPLoader: LoaderPlugin {
    /// Options for requests that do not carry their own ``WebPDecodeOptions``.
    public var defaults: WebPDecodeOptions

    /// A WebP loader decoding with `defaults` where a request has no options of its own.
    public init(defaults: WebPDecodeOptions = WebPDecodeOptions()) {
        self.defaults = defaults
    }

    public var identifier: String { "webp" }
    public var assetKind: AssetKind { .texture }
    public var fileExtensions: Set<String> { ["webp"] }
    /// The RIFF header and the first chunk's header and size fields (`VP8 `, `VP8L` or `VP8X`).
    public var headerLength: Int { WebPHeader.length }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        WebPHeader.hasSignature(header)
    }

    /// The image's (or the animation canvas's) width x height x 4, read from the first chunk.
    public func estimatedDecodedBytes(header: [UInt8]) -> Int? {
        WebPHeader(header)?.decodedBytes
    }

    /// The options that apply to `request`: its own, or the plugin's defaults.
    public func options(for request: PlannedRequest) -> WebPDecodeOptions {
        request.options.contains(WebPDecodeOptions.self) ? request.options[WebPDecodeOptions.self] : defaults
    }

    /// Reads the file and decodes it into pooled memory, checking cancellation and reporting
    /// progress between chunks. What the file was forgiven (an animation's other frames, bytes
    /// after the RIFF chunk) becomes the asset's warnings.
    public func load(_ context: LoadContext) throws -> any Asset {
        try WebPDecoder.decode(
            try context.readContents(), options: options(for: context.request), memory: context.memory,
            isCancelled: { context.isCancelled },
            progress: { context.reportProgress($0) },
            warn: { try context.warn($0) })
    }
}
