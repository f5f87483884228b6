import Preload

/// How the QOI plugin decodes: alpha convention and size limits.
public struct QOIDecodeOptions: Hashable, Sendable {
    /// `.straight` (the default, QOI's own convention) or `.premultiplied`
    /// (colour multiplied by alpha, rounded to nearest).
    public var alphaMode: AlphaMode
    /// Images larger than these are refused after reading the 14-byte header, before pixel
    /// memory exists.
    public var limits: QOILimits

    /// Options with straight alpha and the default limits unless given.
    public init(alphaMode: AlphaMode = .straight, limits: QOILimits = QOILimits()) {
        self.alphaMode = alphaMode
        self.limits = limits
    }
}

/// Size limits for decoded QOI images.
public struct QOILimits: Hashable, Sendable, CustomStringConvertible {
    // 32-bit sides, as in `PNGLimits`: the loader then fits an existential's inline buffer.
    private var storedWidth: Int32
    private var storedHeight: Int32
    /// The most bytes the decoded pixels may take (4 per pixel).
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

/// Per-request QOI options are keyed by their own type. A request without them uses the
/// ``QOILoader``'s defaults.
///
/// ```swift
/// var request = AssetRequest(path: "sprites/hero.qoi")
/// request.options[QOIDecodeOptions.self] = QOIDecodeOptions(alphaMode: .premultiplied)
/// ```
extension QOIDecodeOptions: AssetOptionKey {
    /// Straight alpha, the default ``QOILimits``.
    public static let defaultValue = QOIDecodeOptions()
}
