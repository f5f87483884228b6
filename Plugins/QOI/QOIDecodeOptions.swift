import Preload

/// How the QOI plugin decodes: alpha convention and size limits: the `ImageDecodeOptions` of
/// ``QOIDecoder``.
///
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
public typealias QOIDecodeOptions = ImageDecodeOptions<QOIDecoder>

/// Size limits for decoded QOI images: `ImageLimits`, the limits every image plugin shares.
@available(*, deprecated, renamed: "ImageLimits")
public typealias QOILimits = ImageLimits
