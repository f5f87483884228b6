import Preload

/// The 14 bytes every QOI file starts with: the signature `qoif`, width and height (big-endian
/// 32-bit), channels (3 for RGB, 4 for RGBA) and colour space (0 sRGB, 1 linear).
///
/// Read without decoding anything, so that a file's size is known (and checked against the
/// request's `ImageLimits`) before any pixel memory exists.
public struct QOIHeader: Hashable, Sendable {
    /// How many bytes the header takes.
    public static let length = 14

    /// Width in pixels, as stored (0 to 2^32 - 1).
    public let width: Int
    /// Height in pixels, as stored (0 to 2^32 - 1).
    public let height: Int
    /// The channels byte: 3 (RGB) or 4 (RGBA) in a valid file. Either way the texture is RGBA8.
    public let channels: Int
    /// The colour-space byte: 0 (sRGB with linear alpha) or 1 (all channels linear) in a valid
    /// file. Informative only: it does not change the pixels.
    public let colorspace: Int

    /// Parses the first 14 bytes of `bytes`; `nil` unless there are 14 and they start with `qoif`.
    /// The fields are not checked: see ``validate(limits:)``.
    public init?(_ bytes: [UInt8]) {
        guard let header = bytes.withUnsafeBufferPointer({ QOIHeader(parsing: $0) }) else { return nil }
        self = header
    }

    init?(parsing bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= Self.length, bytes.starts(with: QOIDecoder.signature) else { return nil }
        let reader = ByteReader(bytes)
        guard let width = try? reader.bigEndian(at: 4, byteCount: 4, "the QOI header's width"),
            let height = try? reader.bigEndian(at: 8, byteCount: 4, "the QOI header's height")
        else { return nil }
        self.width = width
        self.height = height
        channels = Int(bytes[12])
        colorspace = Int(bytes[13])
    }

    /// The texture it decodes to: RGBA8 whatever the channels (opaque for RGB).
    public var size: ImageSize { ImageSize(width: width, height: height, isOpaque: channels == 3) }

    /// Bytes the decoded RGBA8 pixels take: `width * height * 4`, or `Int.max` if that does not
    /// fit in an `Int`.
    public var decodedBytes: Int { size.byteCount }

    /// Throws unless the header describes an image QOI allows (3 or 4 channels, no zero side)
    /// that fits `limits` (`ImageLimitExceeded` if it does not).
    public func validate(limits: ImageLimits) throws {
        try validateFields()
        try limits.check(size)
    }

    /// Throws unless the header describes an image QOI allows: 3 or 4 channels, no zero side.
    func validateFields() throws(QOIDecodeError) {
        guard channels == 3 || channels == 4 else {
            throw .corrupt("the header says \(channels) channels; QOI allows 3 (RGB) or 4 (RGBA)")
        }
        guard width > 0 && height > 0 else {
            throw .corrupt("the header says \(width)x\(height) pixels; QOI images have at least one pixel")
        }
    }
}
