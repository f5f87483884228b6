import Preload

/// How the WebP plugin decodes: alpha convention and size limits: the `ImageLoaderSettings` of
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
/// request.options[WebPLoaderSettings.self] = WebPLoaderSettings(alphaMode: .premultiplied)
/// ```
public typealias WebPLoaderSettings = ImageLoaderSettings<WebPDecoder>

/// Size limits for decoded WebP images: `ImageLimits`, the limits every image plugin shares.
@available(*, deprecated, renamed: "ImageLimits")
public typealias WebPLimits = ImageLimits

extension ImageLimits {
    /// A WebP's sides stop at 16383: 16384 a side and 1 GiB of decoded pixels.
    public static let webp = ImageLimits(maxWidth: 16384, maxHeight: 16384)
}

/// The former name of ``WebPLoaderSettings``, before settings were named after their loader
/// (docs/architecture.md, "One naming rule").
@available(*, deprecated, renamed: "WebPLoaderSettings")
public typealias WebPDecodeOptions = WebPLoaderSettings
