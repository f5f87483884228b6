/// What an image decodes to, known from its header before any pixel memory exists: its sides
/// (after any turn the options ask for), its pixel format, and whether it is opaque.
///
/// An ``ImageDecoder`` says it once per file; the ``ImageLoader`` checks it against the
/// options' ``ImageLimits`` (``ImageLimits/check(_:)``), allocates ``byteCount`` bytes and
/// premultiplies them unless ``isOpaque``.
public struct ImageSize: Hashable, Sendable, CustomStringConvertible {
    /// Width of the decoded texture, in pixels.
    public var width: Int
    /// Height of the decoded texture, in pixels.
    public var height: Int
    /// The decoded texture's pixel format.
    public var pixelFormat: PixelFormat
    /// Whether every pixel's alpha is the largest value (a JPEG, a WebP without alpha): then
    /// premultiplication has nothing to do and is skipped.
    public var isOpaque: Bool

    /// A `width` x `height` image of `pixelFormat` pixels, with alpha unless `isOpaque`.
    public init(width: Int, height: Int, pixelFormat: PixelFormat = .rgba8, isOpaque: Bool = false) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.isOpaque = isOpaque
    }

    /// Bytes the decoded pixels take: `width * height * pixelFormat.bytesPerPixel`, or `Int.max`
    /// when a hostile header's sides multiply past it (no limit then lets it through).
    public var byteCount: Int {
        let (pixels, wide) = width.multipliedReportingOverflow(by: height)
        let (bytes, deep) = pixels.multipliedReportingOverflow(by: pixelFormat.bytesPerPixel)
        return wide || deep || width < 0 || height < 0 ? .max : bytes
    }

    public var description: String { "\(width)x\(height)" }
}
