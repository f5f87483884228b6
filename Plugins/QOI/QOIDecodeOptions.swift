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

/// Size limits for decoded QOI images (the limits every image plugin shares).
public typealias QOILimits = ImageLimits

/// Per-request QOI options are keyed by their own type. A request without them uses the
/// ``QOILoader``'s defaults.
///
/// ```swift
/// import Preload
/// import PreloadQOI
///
/// var request = AssetRequest(path: "sprites/hero.qoi")
/// request.options[QOIDecodeOptions.self] = QOIDecodeOptions(alphaMode: .premultiplied)
/// ```
extension QOIDecodeOptions: AssetOptionKey {
    /// Straight alpha, the default ``QOILimits``.
    public static let defaultValue = QOIDecodeOptions()
}
