import CPreloadWebP
import Preload

/// Why a WebP did not decode.
public enum WebPDecodeError: FormatDecodeFailure, Equatable {
    /// The file has no bytes at all.
    case emptyFile
    /// The data does not start with a RIFF header of form `WEBP`.
    case notWebP
    /// The data ends before the image does (libwebp: `VP8_STATUS_NOT_ENOUGH_DATA`, or still
    /// waiting for data once the file is used up).
    case truncated(String)
    /// libwebp rejected the data (`VP8_STATUS_BITSTREAM_ERROR`, a chunk that contradicts another).
    case corrupt(String)
    /// The file is valid but uses a feature libwebp does not decode (`VP8_STATUS_UNSUPPORTED_FEATURE`).
    case unsupported(String)
    /// No longer thrown: an image over the request's `ImageLimits` fails with `ImageLimitExceeded`,
    /// the same for every format.
    case tooLarge(String)
    /// Memory for libwebp's own structures ran out.
    case outOfMemory

    /// How WebP names itself in its failures.
    public static let wording = DecodeFailureWording(format: "WebP", missingSignature: "no RIFF/WEBP header")

    /// The error as one of the failures every decoder meets, which gives its category and words.
    public var failure: DecodeFailure {
        switch self {
        case .emptyFile: .emptyFile
        case .notWebP: .notFormat
        case .truncated(let detail): .truncated(detail)
        case .corrupt(let detail): .corrupt(detail)
        case .unsupported(let detail): .unsupported(detail)
        case .tooLarge(let detail): .tooLarge(detail)
        case .outOfMemory: .outOfMemory
        }
    }
}

extension WebPDecodeError {
    /// The error for a libwebp status other than `VP8_STATUS_OK` and `VP8_STATUS_SUSPENDED`,
    /// with `context` saying where it happened ("in the headers", "at row 12 of 64").
    init(status: VP8StatusCode, context: String) {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA, VP8_STATUS_SUSPENDED: self = .truncated("the data ends \(context)")
        case VP8_STATUS_OUT_OF_MEMORY: self = .outOfMemory
        case VP8_STATUS_UNSUPPORTED_FEATURE: self = .unsupported("the file uses a feature libwebp does not decode (seen \(context))")
        case VP8_STATUS_BITSTREAM_ERROR: self = .corrupt("libwebp rejected the bitstream \(context)")
        default: self = .corrupt("libwebp status \(status.rawValue) \(context)")
        }
    }
}
