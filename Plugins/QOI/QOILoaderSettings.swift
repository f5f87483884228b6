import Preload

/// How the QOI plugin decodes: alpha convention and size limits: the `ImageLoaderSettings` of
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
/// request.options[QOILoaderSettings.self] = QOILoaderSettings(alphaMode: .premultiplied)
/// ```
public typealias QOILoaderSettings = ImageLoaderSettings<QOIDecoder>

/// Size limits for decoded QOI images: `ImageLimits`, the limits every image plugin shares.
@available(*, deprecated, renamed: "ImageLimits")
public typealias QOILimits = ImageLimits

/// The former name of ``QOILoaderSettings``, before settings were named after their loader
/// (docs/architecture.md, "One naming rule").
@available(*, deprecated, renamed: "QOILoaderSettings")
public typealias QOIDecodeOptions = QOILoaderSettings
