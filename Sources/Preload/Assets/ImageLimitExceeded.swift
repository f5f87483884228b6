/// An image larger than the ``ImageLimits`` its load allows: the one error every image plugin
/// throws for it (category ``AssetError/Category/limitExceeded``), before any pixel memory
/// exists. The coordinator reports it as an ``AssetError`` naming the file.
public struct ImageLimitExceeded: AssetFailure, Hashable {
    /// What the header says the image decodes to.
    public let size: ImageSize
    /// The limits it exceeds.
    public let limits: ImageLimits

    /// The error for an image of `size`, over `limits`.
    public init(size: ImageSize, limits: ImageLimits) {
        self.size = size
        self.limits = limits
    }

    public var category: AssetError.Category { .limitExceeded }

    public var description: String {
        let bytes = size.byteCount == .max ? "more than \(Int.max)" : "\(size.byteCount)"
        return "image too large: \(size) needs \(bytes) decoded bytes; the limits are \(limits)"
    }
}

extension ImageLimits {
    /// Throws ``ImageLimitExceeded`` unless an image of `size` fits: its sides and its bytes
    /// (an image whose bytes do not fit in an `Int` never does). The one size check of every
    /// image plugin: ``ImageLoader`` makes it after the header is read, before pixel memory exists.
    public func check(_ size: ImageSize) throws(ImageLimitExceeded) {
        let bytes = size.byteCount
        guard size.width <= maxWidth, size.height <= maxHeight, bytes <= maxDecodedBytes, bytes < .max else {
            throw ImageLimitExceeded(size: size, limits: self)
        }
    }
}
