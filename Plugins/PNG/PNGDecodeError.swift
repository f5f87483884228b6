import Preload

/// Why a PNG did not decode.
public enum PNGDecodeError: FormatDecodeFailure, Equatable {
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

    /// How PNG names itself in its failures.
    public static let wording = DecodeFailureWording(format: "PNG", missingSignature: "no PNG signature")

    /// The error as one of the failures every decoder meets, which gives its category and words.
    public var failure: DecodeFailure {
        switch self {
        case .emptyFile: .emptyFile
        case .notPNG: .notFormat
        case .truncated(let detail): .truncated(detail)
        case .corrupt(let detail): .corrupt(detail)
        case .tooLarge(let detail): .tooLarge(detail)
        case .outOfMemory: .outOfMemory
        }
    }
}
