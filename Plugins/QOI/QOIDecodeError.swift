import Preload

/// Why a QOI file did not decode.
public enum QOIDecodeError: FormatDecodeFailure, Equatable {
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

    /// How QOI names itself in its failures.
    public static let wording = DecodeFailureWording(format: "QOI", oneOf: "a QOI image", missingSignature: "no 'qoif' signature")

    /// The error as one of the failures every decoder meets, which gives its category and words.
    public var failure: DecodeFailure {
        switch self {
        case .emptyFile: .emptyFile
        case .notQOI: .notFormat
        case .truncated(let detail): .truncated(detail)
        case .corrupt(let detail): .corrupt(detail)
        case .tooLarge(let detail): .tooLarge(detail)
        }
    }
}
