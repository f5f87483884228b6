/// The failures every file format's decoder meets, worded and categorised once for all of them:
/// an empty file, a file of another format, data cut short, damaged or of a kind not decoded, a
/// size the decoder's library refuses, memory that ran out.
///
/// A plugin's error type gives each of its cases as one of these through
/// ``FormatDecodeFailure/failure``, and takes its ``AssetFailure/category`` and description
/// from here: `truncated PNG: the data ends in the IDAT chunk`.
public enum DecodeFailure: Sendable, Hashable {
    /// The file has no bytes at all: "empty file, not a PNG".
    case emptyFile
    /// The data does not start with the format's signature: "not a PNG file (no PNG signature)".
    case notFormat
    /// The data ends before the format's stream does: "truncated PNG: `detail`".
    case truncated(String)
    /// The data is damaged, or the decoder's library rejected it: "corrupt PNG: `detail`".
    case corrupt(String)
    /// Valid data of a kind the decoder does not decode: "unsupported PNG: `detail`".
    case unsupported(String)
    /// A size the decoder's library refuses: "PNG too large: `detail`". (An image over the
    /// request's ``ImageLimits`` fails with ``ImageLimitExceeded``, the same for every format.)
    case tooLarge(String)
    /// Memory for the decoder library's own structures ran out.
    case outOfMemory
    /// A failure of the format's own, in its own `words`, with its `category`: one that not every
    /// decoder meets (audio longer than its limit, a codec whose library is not installed).
    case specific(AssetError.Category, String)

    /// The broad class of the failure: an empty or cut file is ``AssetError/Category/truncated``,
    /// another format or damaged data ``AssetError/Category/corrupt``.
    public var category: AssetError.Category {
        switch self {
        case .emptyFile, .truncated: .truncated
        case .notFormat, .corrupt: .corrupt
        case .unsupported: .unsupported
        case .tooLarge: .limitExceeded
        case .outOfMemory: .other
        case .specific(let category, _): category
        }
    }

    /// The failure in words, naming the format as `wording` names it, without the file's path
    /// (the coordinator's ``AssetError`` puts it in front).
    public func description(_ wording: DecodeFailureWording) -> String {
        switch self {
        case .emptyFile: "empty file, not \(wording.oneOf)"
        case .notFormat: "not a \(wording.format) file (\(wording.missingSignature))"
        case .truncated(let detail): "truncated \(wording.format): \(detail)"
        case .corrupt(let detail): "corrupt \(wording.format): \(detail)"
        case .unsupported(let detail): "unsupported \(wording.format): \(detail)"
        case .tooLarge(let detail): "\(wording.format) too large: \(detail)"
        case .outOfMemory: "out of memory while decoding \(wording.format)"
        case .specific(_, let words): words
        }
    }
}

/// How a format names itself in the words of a ``DecodeFailure``.
public struct DecodeFailureWording: Sendable, Hashable {
    /// The format's name: `PNG`, `WebP`.
    public let format: String
    /// One file of the format, as "empty file, not …" ends: `a PNG`, `a QOI image`.
    public let oneOf: String
    /// What a file of another format lacks, as "not a PNG file (…)" says it: `no PNG signature`.
    public let missingSignature: String

    /// The words for `format`; `oneOf` is "a `format`" unless given.
    public init(format: String, oneOf: String? = nil, missingSignature: String) {
        self.format = format
        self.oneOf = oneOf ?? "a \(format)"
        self.missingSignature = missingSignature
    }
}

/// A plugin's error type whose cases are the failures every decoder meets (``DecodeFailure``):
/// it keeps its own type and cases, for callers to match on, and takes its category and its
/// words from core, so that every format says "truncated", "corrupt" and "unsupported" alike.
///
/// ```swift
/// import Preload
///
/// enum RGBADecodeError: FormatDecodeFailure {
///     case emptyFile, notRGBA, truncated(String)
///
///     static let wording = DecodeFailureWording(format: "RGBA", missingSignature: "no RGBA magic")
///
///     var failure: DecodeFailure {
///         switch self {
///         case .emptyFile: .emptyFile
///         case .notRGBA: .notFormat
///         case .truncated(let detail): .truncated(detail)
///         }
///     }
/// }
/// ```
public protocol FormatDecodeFailure: AssetFailure {
    /// How the format names itself in this type's descriptions.
    static var wording: DecodeFailureWording { get }
    /// The error as one of the failures every decoder meets.
    var failure: DecodeFailure { get }
}

extension FormatDecodeFailure {
    /// The category of ``failure``.
    public var category: AssetError.Category { failure.category }
    /// ``failure`` in the words of ``wording``, without the file's path.
    public var description: String { failure.description(Self.wording) }
}
