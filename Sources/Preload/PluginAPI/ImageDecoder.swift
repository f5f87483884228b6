/// One image format's decoder, for ``ImageLoader`` to load: the format's names and signature,
/// its header, and the decode of its pixels. Everything around them (options per request, the
/// size limits, pooled memory, premultiplication, warnings, cancellation and progress) is the
/// loader's, the same for every format.
///
/// A decode runs in four steps, the first three before any pixel memory exists:
/// 1. ``readHeader(_:options:)`` reads what the decode needs from the file (throwing the
///    format's own errors for a file that is not one, or is cut short);
/// 2. ``size(of:options:)`` says what the texture will be: sides, pixel format, opacity;
/// 3. the loader checks that size against the options' ``ImageLimits`` (``ImageLimits/check(_:)``);
/// 4. ``decode(_:header:options:into:)`` writes the pixels through an ``ImageDecodeTarget``
///    (pooled memory, cancellation, progress) and returns what the file was forgiven.
///
/// Every requirement is static: a decoder is a namespace (an `enum`), and its per-load state
/// lives in its ``Header``. The ``decode(_:options:memory:isCancelled:progress:warn:)-(AssetBytes,_,_,_,_,_)`` that
/// every decoder gets decodes a file outside any coordinator.
///
/// ```swift
/// import Preload
///
/// /// "GREY", a width byte, then that many grey pixels a row.
/// enum GreyDecoder: ImageDecoder {
///     struct Header { let width: Int, height: Int }
///     struct Failure: AssetFailure {
///         var category: AssetError.Category { .corrupt }
///         var description: String { "not a GREY file" }
///     }
///     static let identifier = "grey"
///     static let fileExtensions: Set<String> = ["grey"]
///     static let headerLength = 5
///
///     static func matchesSignature(_ header: [UInt8]) -> Bool { header.starts(with: Array("GREY".utf8)) }
///
///     static func readHeader(_ file: UnsafeBufferPointer<UInt8>, options: ImageLoaderSettings<Self>) throws -> Header {
///         guard file.count > 4, matchesSignature(Array(file.prefix(4))), file[4] > 0 else { throw Failure() }
///         let width = Int(file[4])
///         return Header(width: width, height: (file.count - 5) / width)
///     }
///
///     static func size(of header: Header, options: ImageLoaderSettings<Self>) -> ImageSize {
///         ImageSize(width: header.width, height: header.height, isOpaque: true)
///     }
///
///     static func decode(
///         _ file: UnsafeBufferPointer<UInt8>, header: Header, options: ImageLoaderSettings<Self>, into target: ImageDecodeTarget
///     ) throws -> [AssetWarning] {
///         try target.writePixels { pixels in
///             for index in 0..<header.width * header.height {
///                 let grey = file[5 + index]
///                 pixels.storeBytes(of: UInt32(grey) * 0x01_0101 | 0xFF00_0000, toByteOffset: index * 4, as: UInt32.self)
///             }
///         }
///         return []
///     }
/// }
///
/// let coordinator = try PreloadCoordinator(plugins: [ImageLoader<GreyDecoder>()])
/// ```
public protocol ImageDecoder {
    /// The format's own options beyond alpha mode and limits (``ImageLoaderSettings/settings``):
    /// 16-bit samples kept, an EXIF orientation applied. ``NoImageSettings`` when there are none.
    associatedtype Settings: Hashable & Sendable = NoImageSettings
    /// What ``readHeader(_:options:)`` learns and ``decode(_:header:options:into:)`` needs: the
    /// sides and fields of the header, or a library's reader positioned after it (a class that
    /// frees it when released).
    associatedtype Header

    /// The loader's ``LoaderPlugin/identifier`` ("png").
    static var identifier: String { get }
    /// The file extensions the loader claims, lowercase, without the dot.
    static var fileExtensions: Set<String> { get }
    /// How many leading bytes ``matchesSignature(_:)`` and ``estimatedSize(header:options:)`` want.
    static var headerLength: Int { get }
    /// The settings of a request without options of its own (of ``ImageLoaderSettings/defaultValue``).
    static var defaultSettings: Settings { get }
    /// The limits of ``ImageLoaderSettings/defaultValue``; ``ImageLimits/init(maxWidth:maxHeight:maxDecodedBytes:)``'s
    /// defaults unless the format's own sides stop earlier.
    static var defaultLimits: ImageLimits { get }

    /// Whether `header` (the file's first ``headerLength`` bytes, fewer if it is short) starts
    /// like this format.
    static func matchesSignature(_ header: [UInt8]) -> Bool

    /// What the file decodes to, from its first ``headerLength`` bytes, cheaply and without a
    /// library if possible: for progress weighted by decoded size. `nil` when unknown.
    static func estimatedSize(header: [UInt8], options: ImageLoaderSettings<Self>) -> ImageSize?

    /// Reads the header of `file` (the whole file, possibly empty) and what the decode needs
    /// before its pixels. Throws the format's error for a file that is empty, not this format,
    /// cut short or damaged; allocates nothing the size of the image.
    static func readHeader(_ file: UnsafeBufferPointer<UInt8>, options: ImageLoaderSettings<Self>) throws -> Header

    /// The texture `header` decodes to with `options`: sides (after any turn the options ask
    /// for), pixel format, opacity. The loader checks it against `options.limits`.
    static func size(of header: Header, options: ImageLoaderSettings<Self>) -> ImageSize

    /// Decodes the pixels of `file`, whose header is `header` and whose size fits the limits:
    /// calls ``ImageDecodeTarget/writePixels(_:)`` once (after any check that must come before
    /// the pixel memory exists), writing ``ImageSize/byteCount`` bytes of `size(of: header)`
    /// rows top first, and checks ``ImageDecodeTarget/isCancelled`` and reports progress
    /// between chunks. Returns the irregularities the file was forgiven, which the loader
    /// reports as the asset's warnings. Throws the format's error (or `CancellationError`),
    /// never a partly decoded image.
    static func decode(
        _ file: UnsafeBufferPointer<UInt8>, header: Header, options: ImageLoaderSettings<Self>, into target: ImageDecodeTarget
    ) throws -> [AssetWarning]

    /// Reads the format's own ``Settings`` from its plugin's settings (a manifest's
    /// `"options": {"png": {...}}`, the command's `--set png.NAME=VALUE`), after `alpha` and
    /// before the limits every format shares (``ImageSettingsReader``): PNG's `keep16Bit`. The
    /// default reads none, so a member given is an unknown option.
    static func readSettings(_ values: PluginSettingsValues, into settings: inout Settings) throws
}

extension ImageDecoder {
    /// 32768 pixels a side and 1 GiB: ``ImageLimits/init(maxWidth:maxHeight:maxDecodedBytes:)``'s defaults.
    public static var defaultLimits: ImageLimits { ImageLimits() }

    /// No estimate: the file's size weighs it.
    public static func estimatedSize(header: [UInt8], options: ImageLoaderSettings<Self>) -> ImageSize? { nil }

    /// No settings of the format's own.
    public static func readSettings(_ values: PluginSettingsValues, into settings: inout Settings) throws {}
}

extension ImageDecoder where Settings == NoImageSettings {
    /// No settings.
    public static var defaultSettings: NoImageSettings { NoImageSettings() }
}

/// The ``ImageDecoder/Settings`` of a format without options of its own.
public struct NoImageSettings: Hashable, Sendable {
    /// No settings.
    public init() {}
}
