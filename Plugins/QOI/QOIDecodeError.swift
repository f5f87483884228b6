import Preload

/// Why a QOI file did not decode.
public enum QOIDecodeError: AssetFailure, Equatable {
    /// The file has no bytes at all.
    case emptyFile
    /// The data does not start with the QOI signature, `qoif`.
    case notQOI
    /// The data ends before the header does, or before every pixel is decoded.
    case truncated(String)
    /// A header field holds a value QOI does not allow (channels other than 3 or 4, a zero side).
    case corrupt(String)
    /// No longer thrown: an image over the request's `ImageLimits` fails with `ImageLimitExceeded`,
    /// the same for every format.
    case tooLarge(String)

    public var category: AssetError.Category {
        switch self {
        case .emptyFile, .truncated: .truncated
        case .notQOI, .corrupt: .corrupt
        case .tooLarge: .limitExceeded
        }
    }

    public var description: String {
        switch self {
        case .emptyFile: "empty file, not a QOI image"
        case .notQOI: "not a QOI file (no 'qoif' signature)"
        case .truncated(let detail): "truncated QOI: \(detail)"
        case .corrupt(let detail): "corrupt QOI: \(detail)"
        case .tooLarge(let detail): "QOI too large: \(detail)"
        }
    }
}
