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

/// Size limits for decoded PNG images.
public struct PNGLimits: Hashable, Sendable, CustomStringConvertible {
    // 32-bit sides (a PNG's own limit is 2^31 - 1): with them the PNG plugin fits an existential's
    // inline buffer, so handing the plugin to each file's load copies no box.
    private var storedWidth: Int32
    private var storedHeight: Int32
    /// The most bytes the decoded pixels may take.
    public var maxDecodedBytes: Int

    /// The widest image accepted, in pixels.
    public var maxWidth: Int {
        get { Int(storedWidth) }
        set { storedWidth = Int32(clamping: newValue) }
    }

    /// The tallest image accepted, in pixels.
    public var maxHeight: Int {
        get { Int(storedHeight) }
        set { storedHeight = Int32(clamping: newValue) }
    }

    /// Defaults: 32768 pixels a side and 1 GiB of decoded pixels (16384 x 16384 RGBA8).
    public init(maxWidth: Int = 32768, maxHeight: Int = 32768, maxDecodedBytes: Int = 1 << 30) {
        storedWidth = Int32(clamping: maxWidth)
        storedHeight = Int32(clamping: maxHeight)
        self.maxDecodedBytes = maxDecodedBytes
    }

    public var description: String { "\(maxWidth)x\(maxHeight), \(maxDecodedBytes) bytes" }
}

/// Per-request PNG options are keyed by their own type. A request without them uses the
/// ``PNGLoader``'s defaults.
///
/// ```swift
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
