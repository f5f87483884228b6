/// The largest image an image plugin decodes (``ImageLoaderSettings/limits``, for PNG, JPEG, WebP,
/// QOI and any ``ImageDecoder``): a file whose header claims more is refused after its header is
/// read, before any pixel memory exists, with ``ImageLimitExceeded`` (``check(_:)``).
///
/// ```swift
/// import Preload
///
/// let limits = ImageLimits(maxWidth: 8192, maxHeight: 8192, maxDecodedBytes: 256 << 20)
/// ```
public struct ImageLimits: Hashable, Sendable, CustomStringConvertible {
    // 32-bit sides (a PNG's own limit is 2^31 - 1, a JPEG's 65535): with them each image plugin
    // fits an existential's inline buffer, so handing the plugin to each file's load copies no box.
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

    /// Defaults: 32768 pixels a side and 1 GiB of decoded pixels (16384 x 16384 RGBA8).
    public init(maxWidth: Int = 32768, maxHeight: Int = 32768, maxDecodedBytes: Int = 1 << 30) {
        storedWidth = Int32(clamping: maxWidth)
        storedHeight = Int32(clamping: maxHeight)
        self.maxDecodedBytes = maxDecodedBytes
    }

    public var description: String { "\(maxWidth)x\(maxHeight), \(maxDecodedBytes) bytes" }
}
