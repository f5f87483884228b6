import Preload

/// Why a remote file could not be fetched; reported as the `AssetError` of its request (with
/// this as its `underlying` error), naming the URL.
public enum RemoteFetchError: AssetFailure, Equatable {
    /// The server answered with a final status (a 4xx other than 408 and 429), or with a
    /// retryable one on every attempt.
    case status(Int, attempts: Int)
    /// The transfer gave up: ``RetryPolicy/attempts`` attempts in a row brought no new byte
    /// (or ``RetryPolicy/maxRequests`` were made): how often it was cut, how far it got, whether
    /// the bytes so far are kept for the next fetch to resume, and the last cause in words
    /// (refused, reset, cut off after N bytes, stalled for N s).
    case transfer(TransferFailure)
    /// The bytes are not the ones promised: their size or SHA-256 differs (nothing was cached).
    case mismatch(String)
    /// The server sent more bytes than the promised size (cut off there; nothing was cached).
    case tooLong(expected: Int64)
    /// A redirect to a scheme other than http and https, or more redirects than allowed.
    case redirect(String)
    /// The URL is not an http or https URL the client can ask for.
    case badURL(String)
    /// The cache could not keep the file.
    case cache(String)
    /// libcurl, which downloads, or libcrypto, whose SHA-256 checks the bytes, is not installed (the
    /// words name the package to install).
    case library(String)
    /// The fetch was cancelled before the file was whole.
    case cancelled

    public var category: AssetError.Category {
        switch self {
        case .mismatch, .tooLong: .corrupt
        case .cancelled: .other
        case .library: .libraryMissing
        default: .download
        }
    }

    public var description: String {
        switch self {
        case .status(let status, let attempts):
            "the server answered HTTP \(status)" + (attempts > 1 ? " (\(attempts) attempts)" : "")
        case .transfer(let failure): failure.description
        case .mismatch(let detail): "downloaded bytes do not match: \(detail) (not cached)"
        case .tooLong(let expected): "the server sent more than the promised \(expected) bytes (cut off, not cached)"
        case .redirect(let detail): "redirect refused: \(detail)"
        case .badURL(let detail): "not a URL that can be fetched: \(detail)"
        case .cache(let detail): "the cache could not keep it: \(detail)"
        case .library(let detail): detail
        case .cancelled: "cancelled while downloading"
        }
    }
}

/// How a transfer that gave up went: ``RemoteFetchError/transfer(_:)``.
public struct TransferFailure: Sendable, Hashable, CustomStringConvertible {
    /// The last attempt's cause in words (refused, reset, cut off after N bytes, stalled for N s).
    public var cause: String
    /// HTTP requests made for the file.
    public var attempts: Int
    /// Of them, those whose body began and was cut before the file was whole (a connection
    /// refused, or a stall before the response's head, is not a cut).
    public var cuts: Int
    /// Bytes of the file held when it gave up.
    public var received: Int64
    /// The file's size, when the server or a promise said it.
    public var total: Int64?
    /// Whether the bytes so far are kept in the cache's `partial/` folder: the next fetch of the
    /// URL resumes from ``received`` with a `Range` request.
    public var keptForResuming: Bool

    /// A failure after `attempts` requests, `cuts` of them cut short, at byte `received` of
    /// `total`, kept or not.
    public init(cause: String, attempts: Int, cuts: Int, received: Int64 = 0, total: Int64? = nil, keptForResuming: Bool = false) {
        self.cause = cause
        self.attempts = attempts
        self.cuts = cuts
        self.received = received
        self.total = total
        self.keptForResuming = keptForResuming
    }

    /// "download gave up after 6 attempts: cut 6 times, at byte 20971520 of 128974848 (kept
    /// for resuming; the next fetch goes on from there); last: connection reset".
    public var description: String {
        var words = "download gave up after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        if cuts > 0 { words += ": cut \(cuts) time\(cuts == 1 ? "" : "s")" }
        if received > 0 || cuts > 0 {
            words += "\(cuts > 0 ? "," : ":") at byte \(received)" + (total.map { " of \($0)" } ?? "")
            words += keptForResuming ? " (kept for resuming: the next fetch goes on from there)" : " (not kept: nothing to resume with)"
        }
        return words + "; last: \(cause)"
    }
}
