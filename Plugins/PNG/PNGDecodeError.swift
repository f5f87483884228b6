import Preload

/// Why a PNG did not decode.
public enum PNGDecodeError: AssetFailure, Equatable {
    /// The file has no bytes at all.
    case emptyFile
    /// The data does not start with the PNG signature.
    case notPNG
    /// The data ends before the PNG stream does.
    case truncated(String)
    /// libpng rejected the stream (bad CRC, bad header field, bad compressed data, ...).
    case corrupt(String)
    /// libpng refused a size in the header. (An image over the request's `ImageLimits` fails with
    /// `ImageLimitExceeded` instead, the same for every format.)
    case tooLarge(String)
    /// Memory for libpng's own structures ran out.
    case outOfMemory

    public var category: AssetError.Category {
        switch self {
        case .emptyFile, .truncated: .truncated
        case .notPNG, .corrupt: .corrupt
        case .tooLarge: .limitExceeded
        case .outOfMemory: .other
        }
    }

    public var description: String {
        switch self {
        case .emptyFile: "empty file, not a PNG"
        case .notPNG: "not a PNG file (no PNG signature)"
        case .truncated(let detail): "truncated PNG: \(detail)"
        case .corrupt(let detail): "corrupt PNG: \(detail)"
        case .tooLarge(let detail): "PNG too large: \(detail)"
        case .outOfMemory: "out of memory while decoding PNG"
        }
    }
}
