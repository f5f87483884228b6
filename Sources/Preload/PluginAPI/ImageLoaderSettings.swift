/// How an image is decoded: alpha convention, size limits, and the format's own settings. One
/// type for every image format, keyed by its decoder (`ImageLoaderSettings<PNGDecoder>` is
/// `PNGLoaderSettings`), so a request carries options for each format apart.
///
/// A request's own options win; a request without them uses its ``ImageLoader``'s
/// ``ImageLoader/defaults``.
///
/// ```swift
/// import Preload
///
/// enum RawDecoder: ImageDecoder {
///     static let identifier = "raw"
///     static let fileExtensions: Set<String> = ["raw"]
///     static let headerLength = 0
///     static func matchesSignature(_ header: [UInt8]) -> Bool { false }
///     static func readHeader(_ file: UnsafeBufferPointer<UInt8>, options: ImageLoaderSettings<Self>) throws -> Int { file.count / 4 }
///     static func size(of header: Int, options: ImageLoaderSettings<Self>) -> ImageSize { ImageSize(width: header, height: 1) }
///     static func decode(
///         _ file: UnsafeBufferPointer<UInt8>, header: Int, options: ImageLoaderSettings<Self>, into target: ImageDecodeTarget
///     ) throws -> [AssetWarning] {
///         try target.writePixels { $0.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: file.prefix(header * 4)))) }
///         return []
///     }
/// }
///
/// var request = AssetRequest(path: "sky.raw")
/// request.options[ImageLoaderSettings<RawDecoder>.self] = ImageLoaderSettings(alphaMode: .premultiplied)
/// ```
@dynamicMemberLookup
public struct ImageLoaderSettings<Codec: ImageDecoder>: Hashable, Sendable {
    // Declared in this order (the limits' 16, one byte, then the settings' few) so that a loader
    // holding its defaults fits an existential's inline buffer, and so that the limits and the
    // alpha mode, which every decode reads, are where they are for every format: read from
    // behind the format's settings, each read asked the runtime for this generic type's
    // metadata (~330 instructions a lookup, per file; callgrind, issue 50).
    /// Images larger than these are refused after reading the header, before pixel memory exists.
    public var limits: ImageLimits
    /// `.straight` (the default) or `.premultiplied` (colour multiplied by alpha, rounded to
    /// nearest: ``Premultiplication``, for every format).
    public var alphaMode: AlphaMode
    /// The format's own settings (16-bit samples kept, an EXIF orientation applied).
    public var settings: Codec.Settings

    /// Options with `settings`, straight alpha and the format's default limits unless given.
    public init(alphaMode: AlphaMode = .straight, settings: Codec.Settings, limits: ImageLimits = Codec.defaultLimits) {
        self.alphaMode = alphaMode
        self.settings = settings
        self.limits = limits
    }

    /// The format's own settings by name: `options.keepsSixteenBitSamples` reads and writes
    /// `options.settings.keepsSixteenBitSamples`.
    public subscript<Value>(dynamicMember setting: WritableKeyPath<Codec.Settings, Value>) -> Value {
        get { settings[keyPath: setting] }
        set { settings[keyPath: setting] = newValue }
    }
}

extension ImageLoaderSettings where Codec.Settings == NoImageSettings {
    /// Options with straight alpha and the format's default limits unless given.
    public init(alphaMode: AlphaMode = .straight, limits: ImageLimits = Codec.defaultLimits) {
        self.init(alphaMode: alphaMode, settings: NoImageSettings(), limits: limits)
    }
}

extension ImageLoaderSettings: AssetOptionKey {
    /// Straight alpha, the format's default settings and limits.
    public static var defaultValue: ImageLoaderSettings { ImageLoaderSettings(settings: Codec.defaultSettings) }
}

/// The former name of ``ImageLoaderSettings``, before settings were named after their loader
/// (docs/architecture.md, "One naming rule").
@available(*, deprecated, renamed: "ImageLoaderSettings")
public typealias ImageDecodeOptions<Codec: ImageDecoder> = ImageLoaderSettings<Codec>
