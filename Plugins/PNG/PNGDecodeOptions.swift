import Preload

/// How the PNG plugin decodes: alpha convention, sample depth, and size limits.
public struct PNGDecodeOptions: Hashable, Sendable {
    /// `.straight` (the default, PNG's own convention) or `.premultiplied`
    /// (colour multiplied by alpha, rounded to nearest).
    public var alphaMode: AlphaMode
    /// Keep 16-bit samples as `PixelFormat/rgba16` (for data textures such as height maps).
    /// Files with 8 bits or fewer per sample still decode to RGBA8.
    public var keepsSixteenBitSamples: Bool
    /// Images larger than these are refused after reading the header, before pixel memory exists.
    public var limits: PNGLimits

    /// Options with straight alpha, 8-bit samples and the default limits unless given.
    public init(alphaMode: AlphaMode = .straight, keepsSixteenBitSamples: Bool = false, limits: PNGLimits = PNGLimits()) {
        self.alphaMode = alphaMode
        self.keepsSixteenBitSamples = keepsSixteenBitSamples
        self.limits = limits
    }
}

/// Size limits for decoded PNG images (the limits every image plugin shares).
public typealias PNGLimits = ImageLimits

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
extension PNGDecodeOptions: AssetOptionKey {
    /// Straight alpha, 8-bit samples, the default ``PNGLimits``.
    public static let defaultValue = PNGDecodeOptions()
}

/// The former name of the key for per-request PNG options, now ``PNGDecodeOptions`` itself.
@available(*, deprecated, renamed: "PNGDecodeOptions", message: "PNG options are keyed by their own type")
public typealias PNGOptions = PNGDecodeOptions
