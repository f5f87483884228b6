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
    public init(alphaMode: AlphaMode = .straight, limits: WebPLimits = .webp) {
        self.alphaMode = alphaMode
        self.limits = limits
    }
}

/// Size limits for decoded WebP images (the limits every image plugin shares; WebP's own sides
/// stop at 16383, so ``WebPDecodeOptions`` defaults to 16384 a side).
public typealias WebPLimits = ImageLimits

extension ImageLimits {
    /// A WebP's sides stop at 16383: 16384 a side and 1 GiB of decoded pixels.
    public static let webp = ImageLimits(maxWidth: 16384, maxHeight: 16384)

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
/// import Preload
/// import PreloadWebP
///
/// var request = AssetRequest(path: "sprites/hero.webp")
/// request.options[WebPDecodeOptions.self] = WebPDecodeOptions(alphaMode: .premultiplied)
/// ```
extension WebPDecodeOptions: AssetOptionKey {
    /// Straight alpha, the WebP limits (`ImageLimits.webp`).
    public static let defaultValue = WebPDecodeOptions()
}
