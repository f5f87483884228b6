import Preload

/// How the JPEG plugin decodes: alpha convention, EXIF orientation, and size limits: the
/// `ImageLoaderSettings` of ``JPEGDecoder``.
///
/// Per-request JPEG options are keyed by their own type. A request without them uses the
/// ``JPEGLoader``'s defaults.
///
/// ```swift
/// import Preload
/// import PreloadJPEG
///
/// var request = AssetRequest(path: "photos/beach.jpg")
/// request.options[JPEGLoaderSettings.self] = JPEGLoaderSettings(appliesExifOrientation: true)
/// ```
///
/// A JPEG has no alpha (every pixel's is 255), so `.premultiplied` leaves the pixels as they are:
/// it only sets the texture's `Texture.alphaMode`, for engines that keep every texture
/// premultiplied. The limits are checked against the texture the decode would make (its sides
/// after any EXIF orientation is applied).
public typealias JPEGLoaderSettings = ImageLoaderSettings<JPEGDecoder>

/// JPEG's own decode settings (`ImageLoaderSettings.settings` of ``JPEGLoaderSettings``).
public struct JPEGSettings: Hashable, Sendable {
    /// Turn the pixels upright as the file's EXIF orientation says (orientations 2 to 8: mirrors
    /// and quarter turns; 5 to 8 swap width and height). Off by default, as in Pillow, Bevy and
    /// libGDX: the texture is then laid out as stored, and a file whose orientation is not 1
    /// loads with the warning `AssetWarning.Code.jpegExifOrientation` (`jpeg.exif-orientation`).
    public var appliesExifOrientation: Bool

    /// The stored orientation unless `appliesExifOrientation`.
    public init(appliesExifOrientation: Bool = false) {
        self.appliesExifOrientation = appliesExifOrientation
    }
}

extension ImageLoaderSettings where Codec == JPEGDecoder {
    /// Options with straight alpha, the stored orientation and the default limits unless given.
    public init(alphaMode: AlphaMode = .straight, appliesExifOrientation: Bool = false, limits: ImageLimits = ImageLimits()) {
        self.init(alphaMode: alphaMode, settings: JPEGSettings(appliesExifOrientation: appliesExifOrientation), limits: limits)
    }
}

/// Size limits for decoded JPEG images: `ImageLimits`, the limits every image plugin shares.
@available(*, deprecated, renamed: "ImageLimits")
public typealias JPEGLimits = ImageLimits

extension ImageLimits {
    /// What libjpeg may allocate for itself: a progressive file keeps every DCT coefficient
    /// (2 bytes per sample, up to 4 full-size components: twice the RGBA bytes), plus slack for
    /// its tables. More than this fails as too large instead of being allocated.
    var libjpegMemory: UInt64 {
        UInt64(clamping: maxDecodedBytes) &* 2 &+ (64 << 20)
    }
}

/// The former name of ``JPEGLoaderSettings``, before settings were named after their loader
/// (docs/architecture.md, "One naming rule").
@available(*, deprecated, renamed: "JPEGLoaderSettings")
public typealias JPEGDecodeOptions = JPEGLoaderSettings
