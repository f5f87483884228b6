import Preload

/// How the PNG plugin decodes: alpha convention, sample depth, and size limits: the
/// `ImageDecodeOptions` of ``PNGDecoder``.
///
/// Per-request PNG options are keyed by their own type. A request without them uses the
/// ``PNGLoader``'s defaults.
///
/// ```swift
/// import Preload
/// import PreloadPNG
///
/// var request = AssetRequest(path: "terrain/height.png")
/// request.options[PNGDecodeOptions.self] = PNGDecodeOptions(keepsSixteenBitSamples: true)
/// ```
public typealias PNGDecodeOptions = ImageDecodeOptions<PNGDecoder>

/// PNG's own decode settings (`ImageDecodeOptions.settings` of ``PNGDecodeOptions``).
public struct PNGSettings: Hashable, Sendable {
    /// Keep 16-bit samples as `PixelFormat/rgba16` (for data textures such as height maps).
    /// Files with 8 bits or fewer per sample still decode to RGBA8.
    public var keepsSixteenBitSamples: Bool

    /// 8-bit samples unless `keepsSixteenBitSamples`.
    public init(keepsSixteenBitSamples: Bool = false) {
        self.keepsSixteenBitSamples = keepsSixteenBitSamples
    }
}

extension ImageDecodeOptions where Codec == PNGDecoder {
    /// Options with straight alpha, 8-bit samples and the default limits unless given.
    public init(alphaMode: AlphaMode = .straight, keepsSixteenBitSamples: Bool = false, limits: ImageLimits = ImageLimits()) {
        self.init(alphaMode: alphaMode, settings: PNGSettings(keepsSixteenBitSamples: keepsSixteenBitSamples), limits: limits)
    }
}

/// Size limits for decoded PNG images: `ImageLimits`, the limits every image plugin shares.
@available(*, deprecated, renamed: "ImageLimits")
public typealias PNGLimits = ImageLimits

/// The former name of the key for per-request PNG options, now ``PNGDecodeOptions`` itself.
@available(*, deprecated, renamed: "PNGDecodeOptions", message: "PNG options are keyed by their own type")
public typealias PNGOptions = PNGDecodeOptions
