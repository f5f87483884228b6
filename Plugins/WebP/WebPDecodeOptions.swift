import Preload

/// How the WebP plugin decodes: alpha convention and size limits.
public struct WebPDecodeOptions: Hashable, Sendable {
    /// `.straight` (the default, WebP's own convention) or `.premultiplied`
    /// (colour multiplied by alpha, rounded to nearest, as the PNG plugin does).
    public var alphaMode: AlphaMode
    /// Images (or animation canvases) larger than these are refused after reading the header,
    /// before pixel memory exists.
    public var limits: WebPLimits

    /// Options with straight alpha and the default limits unless given.
    public init(alphaMode: AlphaMode = .straight, limits: WebPLimits = WebPLimits()) {
        self.alphaMode = alphaMode
        self.limits = limits
    }
}

/// Size limits for decoded WebP images.
public struct WebPLimits: Hashable, Sendable, CustomStringConvertible {
    // 32-bit sides, as in the PNG plugin's limits: the plugin then fits an existential's inline
    // buffer.
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

    /// Defaults: 16384 pixels a side (a still WebP's own limit) and 1 GiB of decoded pixels.
    public init(maxWidth: Int = 16384, maxHeight: Int = 16384, maxDecodedBytes: Int = 1 << 30) {
        storedWidth = Int32(clamping: maxWidth)
        storedHeight = Int32(clamping: maxHeight)
        self.maxDecodedBytes = maxDecodedBytes
    }

    public var description: String { "\(maxWidth)x\(maxHeight), \(maxDecodedBytes) bytes" }

    /// Throws ``WebPDecodeError/tooLarge(_:)`` unless a `width` x `height` RGBA8 image fits.
    func check(width: Int, height: Int) throws(WebPDecodeError) {
        let (bytes, overflow) = width.multipliedReportingOverflow(by: height * 4)
        if width > maxWidth || height > maxHeight {
            throw .tooLarge("\(width)x\(height) exceeds the limit of \(maxWidth)x\(maxHeight) pixels")
        }
        if overflow || bytes > maxDecodedBytes {
            throw .tooLarge("\(width)x\(height) needs \(overflow ? Int.max : bytes) decoded bytes, over the limit of \(maxDecodedBytes)")
        }
    }
}

/// Per-request WebP options are keyed by their own type. A request without them uses the
/// ``WebPLoader``'s defaults.
///
/// ```swift
/// var request = AssetRequest(path: "sprites/hero.webp")
/// request.options[WebPDecodeOptions.self] = WebPDecodeOptions(alphaMode: .premultiplied)
/// ```
extension WebPDecodeOptions: AssetOptionKey {
    /// Straight alpha, the default ``WebPLimits``.
    public static let defaultValue = WebPDecodeOptions()
}
