/// The loader plugin of an image format: claims the ``ImageDecoder``'s extensions and the files
/// that start with its signature, and decodes them into `Texture`s. `PNGLoader` is
/// `ImageLoader<PNGDecoder>`.
///
/// For every format alike: the request's own ``ImageLoaderSettings`` or the loader's
/// ``defaults``; the one size check (``ImageLimits/check(_:)``: an image over the limits fails
/// with ``ImageLimitExceeded``, reported as an ``AssetError`` naming the file and the limits,
/// before pixel memory exists); pooled pixel memory; premultiplication; the file's
/// irregularities as the asset's warnings (``LoadContext/warn(_:)-(AssetWarning)``); cancellation and progress
/// between the decoder's chunks.
///
/// ```swift
/// import Preload
///
/// func plugins<Codec: ImageDecoder>(for codec: Codec.Type) -> [any LoaderPlugin] {
///     [ImageLoader<Codec>(defaults: ImageLoaderSettings(alphaMode: .premultiplied, settings: Codec.defaultSettings))]
/// }
/// ```
public struct ImageLoader<Codec: ImageDecoder>: LoaderPlugin {
    /// Options for requests that do not carry their own ``ImageLoaderSettings``.
    public var defaults: ImageLoaderSettings<Codec>

    /// A loader decoding with `defaults` where a request has no options of its own.
    public init(defaults: ImageLoaderSettings<Codec> = .defaultValue) {
        self.defaults = defaults
    }

    public var identifier: String { Codec.identifier }
    public var assetKind: AssetKind { .texture }
    public var fileExtensions: Set<String> { Codec.fileExtensions }
    public var headerLength: Int { Codec.headerLength }

    public func matchesSignature(_ header: [UInt8]) -> Bool {
        Codec.matchesSignature(header)
    }

    /// The bytes of the texture the header declares with the default options.
    public func estimatedDecodedBytes(header: [UInt8]) -> Int? {
        Codec.estimatedSize(header: header, options: defaults)?.byteCount
    }

    /// The options that apply to `request`: its own, or the loader's defaults.
    public func options(for request: PlannedRequest) -> ImageLoaderSettings<Codec> {
        // Most requests carry no options: nothing to look up (~190 instructions a file; callgrind,
        // issue 50). Returning the generic settings still asks the runtime for their metadata.
        let options = request.options
        guard !options.isEmpty, options.contains(ImageLoaderSettings<Codec>.self) else { return defaults }
        return options[ImageLoaderSettings<Codec>.self]
    }

    /// Reads the file and decodes it into pooled memory
    /// (``ImageDecoder/decode(_:options:memory:isCancelled:progress:warn:)-(AssetBytes,_,_,_,_,_)``), checking
    /// cancellation and reporting progress between chunks; what the file was forgiven becomes
    /// the asset's warnings.
    public func load(_ context: LoadContext) throws -> any Asset {
        let contents = try context.readContents()
        // A request without options (most) decodes with the defaults where the loader holds them:
        // a copy of the generic settings asks the runtime for their type's metadata, a lookup of
        // ~330 instructions a file (callgrind, issue 50). The request's own options are read in a
        // function of their own: a value of the settings' type held here made this function ask
        // for the type's metadata on entry, whatever the path.
        guard context.request.options.isEmpty else { return try load(contents, withOwnOptionsOf: context) }
        return try Codec.decode(
            contents, options: defaults, memory: context.memory, isCancelled: { context.isCancelled },
            progress: { context.reportProgress($0) }, warn: { try context.warn($0) })
    }

    /// ``load(_:)`` of a request that carries options: its ``ImageLoaderSettings``, else the defaults.
    @inline(never)
    private func load(_ contents: AssetBytes, withOwnOptionsOf context: LoadContext) throws -> any Asset {
        try Codec.decode(
            contents, options: options(for: context.request), memory: context.memory, isCancelled: { context.isCancelled },
            progress: { context.reportProgress($0) }, warn: { try context.warn($0) })
    }
}
