import Preload

/// How the WebP plugin decodes: alpha convention and size limits: the `ImageDecodeOptions` of
/// ``WebPDecoder``. The default limits are `ImageLimits.webp` (16384 a side: WebP's own sides
/// stop at 16383).
///
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
public typealias WebPDecodeOptions = ImageDecodeOptions<WebPDecoder>

/// Size limits for decoded WebP images: `ImageLimits`, the limits every image plugin shares.
@available(*, deprecated, renamed: "ImageLimits")
public typealias WebPLimits = ImageLimits

extension ImageLimits {
    /// A WebP's sides stop at 16383: 16384 a side and 1 GiB of decoded pixels.
    public static let webp = ImageLimits(maxWidth: 16384, maxHeight: 16384)
}
