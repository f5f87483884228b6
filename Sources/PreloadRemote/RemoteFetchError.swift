import Preload

/// Why a remote file could not be fetched; reported as the `AssetError` of its request (with
/// this as its `underlying` error), naming the URL.
public enum RemoteFetchError: AssetFailure, Equatable {
    /// The server answered with a final status (a 4xx other than 408 and 429), or with a
    /// retryable one on every attempt.
    case status(Int, attempts: Int)
    /// The transfer failed on every attempt (the last cause in words: refused, reset, cut off
    /// after N bytes, stalled for N s).
    case transfer(String, attempts: Int)
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
        case .transfer(let cause, let attempts): "download failed after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(cause)"
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
