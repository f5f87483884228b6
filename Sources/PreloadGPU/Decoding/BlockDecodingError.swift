import Preload

/// Why ``BlockDecoder`` could not decode blocks.
public enum BlockDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The format is not one of BC1, BC3, BC4, BC5 and BC7 (decoded samples, or ASTC).
    case notBCFormat(PixelFormat)
    /// A width or height below zero.
    case invalidSize(width: Int, height: Int)
    /// The blocks are not the bytes an image of that size takes in that format.
    case byteCountMismatch(expected: Int, actual: Int)

    public var description: String {
        switch self {
        case .notBCFormat(let format): "\(format) is not a BC format"
        case .invalidSize(let width, let height): "invalid image size \(width)x\(height)"
        case .byteCountMismatch(let expected, let actual): "\(actual) bytes of blocks, the image takes \(expected)"
        }
    }
}
