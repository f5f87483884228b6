import Preload

/// Why an ASTC encode or decode failed (a missing library is `MissingSystemLibrary`).
public enum ASTCError: AssetFailure, Equatable {
    /// astcenc refused: the function that did, its `astcenc_error` code and
    /// `astcenc_get_error_string`'s words for it ("ASTCENC_ERR_BAD_BLOCK_SIZE").
    case library(function: String, status: Int, message: String)
    /// The compressed data is not the size its width, height and block size make: `expected`
    /// bytes (16 a block), `actual` given.
    case blockDataSize(expected: Int, actual: Int)
    /// An image size astcenc cannot take: negative, or a side of 2^32 pixels or more.
    case invalidSize(width: Int, height: Int)
    /// An `.astc` file's header is damaged or names what this decoder does not decode (3D blocks,
    /// a block size other than 4x4, 5x5, 6x6 or 8x8).
    case invalidFile(String)

    public var category: AssetError.Category {
        switch self {
        case .library: .other
        case .blockDataSize: .truncated
        case .invalidSize: .limitExceeded
        case .invalidFile: .corrupt
        }
    }

    public var description: String {
        switch self {
        case .library(let function, let status, let message): "astcenc: \(function) failed with \(message) (\(status))"
        case .blockDataSize(let expected, let actual): "ASTC data of \(actual) bytes where the image's blocks take \(expected)"
        case .invalidSize(let width, let height): "no ASTC image is \(width)x\(height) pixels"
        case .invalidFile(let cause): "not an ASTC file this decoder reads: \(cause)"
        }
    }
}
