import Preload

/// The PNG loader plugin: claims `.png` files and any file that starts with the PNG signature,
/// and decodes them with libpng into `Texture`s.
///
/// ```swift
/// import Preload
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// ```
public struct PNGLoader: LoaderPlugin {
    /// Options for requests that do not carry their own ``PNGDecodeOptions``.
    public var defaults: PNGDecodeOptions

    /// A PNG loader decoding with `defaults` where a request has no options of its own.
    public init(defaults: PNGDecodeOptions = PNGDecodeOptions()) {
        self.defaults = defaults
    }

    public var identifier: String { "png" }
    public var assetKind: AssetKind { .texture }
    public var fileExtensions: Set<String> { ["png"] }
    /// The signature, the IHDR chunk's length and type, and its 13 data bytes.
    public var headerLength: Int { 33 }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        header.starts(with: PNGDecoder.signature)
    }

    public func estimatedDecodedBytes(header: [UInt8]) -> Int? {
        PNGHeader(header)?.decodedBytes(options: defaults)
    }

    /// The options that apply to `request`: its own, or the plugin's defaults.
    public func options(for request: PlannedRequest) -> PNGDecodeOptions {
        request.options.contains(PNGDecodeOptions.self) ? request.options[PNGDecodeOptions.self] : defaults
    }

    /// Reads the file and decodes it (into pooled memory when large), checking cancellation
    /// and reporting progress between chunks of rows. What the file was forgiven (no IEND, a bad
    /// ancillary CRC) becomes the asset's warnings.
    public func load(_ context: LoadContext) throws -> any Asset {
        try PNGDecoder.decode(
            try context.readContents(), options: options(for: context.request), memory: context.memory,
            isCancelled: { context.isCancelled },
            progress: { context.reportProgress($0) },
            warn: { try context.warn($0) })
    }
}
