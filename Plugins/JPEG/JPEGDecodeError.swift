import Preload

/// Why a JPEG did not decode.
public enum JPEGDecodeError: FormatDecodeFailure, Equatable {
    /// The file has no bytes at all.
    case emptyFile
    /// The data does not start with a JPEG SOI marker (`FF D8 FF`).
    case notJPEG
    /// The data ends before the JPEG stream does (its EOI marker included).
    case truncated(String)
    /// libjpeg rejected the stream, or found its compressed data damaged (a bad Huffman code,
    /// a segment that ends early, a missing restart marker, ...).
    case corrupt(String)
    /// A valid JPEG of a kind this plugin does not decode: 12-bit or lossless data, an unusual
    /// number of colour components, a hierarchical process.
    case unsupported(String)
    /// libjpeg's own limits refused the file: more than 500 scans, more memory than the limits
    /// allow for its coefficients. (An image over the request's `ImageLimits` fails with
    /// `ImageLimitExceeded`, the same for every format.)
    case tooLarge(String)
    /// Memory for libjpeg's own structures ran out.
    case outOfMemory

    /// How JPEG names itself in its failures.
    public static let wording = DecodeFailureWording(format: "JPEG", missingSignature: "no SOI marker")

    /// The error as one of the failures every decoder meets, which gives its category and words.
    public var failure: DecodeFailure {
        switch self {
        case .emptyFile: .emptyFile
        case .notJPEG: .notFormat
        case .truncated(let detail): .truncated(detail)
        case .corrupt(let detail): .corrupt(detail)
        case .unsupported(let detail): .unsupported(detail)
        case .tooLarge(let detail): .tooLarge(detail)
        case .outOfMemory: .outOfMemory
        }
    }
}
