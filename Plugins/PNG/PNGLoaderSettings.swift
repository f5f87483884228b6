import Preload

/// How the PNG plugin decodes: alpha convention, sample depth, and size limits: the
/// `ImageLoaderSettings` of ``PNGDecoder``.
///
/// Per-request PNG options are keyed by their own type. A request without them uses the
/// ``PNGLoader``'s defaults.
///
/// ```swift
/// import Preload
/// import PreloadPNG
///
/// var request = AssetRequest(path: "terrain/height.png")
/// request.options[PNGLoaderSettings.self] = PNGLoaderSettings(keepsSixteenBitSamples: true)
/// ```
public typealias PNGLoaderSettings = ImageLoaderSettings<PNGDecoder>

/// PNG's own decode settings (`ImageLoaderSettings.settings` of ``PNGLoaderSettings``).
public struct PNGSettings: Hashable, Sendable {
    /// Keep 16-bit samples as `PixelFormat/rgba16` (for data textures such as height maps).
    /// Files with 8 bits or fewer per sample still decode to RGBA8.
    public var keepsSixteenBitSamples: Bool
    /// Which decoder reads the file: ``PNGDecodePath/automatic`` (the fast path where it applies,
    /// libpng otherwise) unless a benchmark or a test asks for one of them alone. The choice never
    /// changes pixels, warnings or errors.
    public var path: PNGDecodePath

    /// 8-bit samples unless `keepsSixteenBitSamples`; the fast path where it applies.
    public init(keepsSixteenBitSamples: Bool = false, path: PNGDecodePath = .automatic) {
        self.keepsSixteenBitSamples = keepsSixteenBitSamples
        self.path = path
    }
}

/// Which of the PNG plugin's two decoders reads a file (``PNGSettings/path``).
///
/// The fast path (``PNGFastPath``) decodes the PNGs games ship, 8-bit and not interlaced, about
/// twice as fast as libpng; libpng decodes everything else, and every file the fast path declines.
/// Both give the same pixels, warnings and errors.
public enum PNGDecodePath: Hashable, Sendable {
    /// The fast path where it applies, libpng otherwise: the default.
    case automatic
    /// libpng for every file, as before the fast path existed.
    case libpngOnly
    /// The fast path alone: a file it declines fails with ``PNGFastPathDeclined`` (for tests and
    /// benchmarks that must know which decoder ran).
    case fastPathOnly
}

extension ImageLoaderSettings where Codec == PNGDecoder {
    /// Options with straight alpha, 8-bit samples and the default limits unless given.
    public init(alphaMode: AlphaMode = .straight, keepsSixteenBitSamples: Bool = false, limits: ImageLimits = ImageLimits()) {
        self.init(alphaMode: alphaMode, settings: PNGSettings(keepsSixteenBitSamples: keepsSixteenBitSamples), limits: limits)
    }
}

/// Size limits for decoded PNG images: `ImageLimits`, the limits every image plugin shares.
@available(*, deprecated, renamed: "ImageLimits")
public typealias PNGLimits = ImageLimits

/// The former name of the key for per-request PNG options, now ``PNGLoaderSettings`` itself.
@available(*, deprecated, renamed: "PNGLoaderSettings", message: "PNG options are keyed by their own type")
public typealias PNGOptions = PNGLoaderSettings

/// The former name of ``PNGLoaderSettings``, before settings were named after their loader
/// (docs/architecture.md, "One naming rule").
@available(*, deprecated, renamed: "PNGLoaderSettings")
public typealias PNGDecodeOptions = PNGLoaderSettings
