/// Why a request to a ``BazelRemoteCache`` failed. Each case names the URL it concerns as
/// ``BazelRemoteCache/displayURL`` shows it: never with the user and password of the cache's URL,
/// the value of a header, or anything a netrc file holds.
public enum BazelCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The cache's URL is not an `http://` or `https://` URL a cache can be at (the reason says
    /// why; the URL is shown without its credentials).
    case badURL(String, reason: String)
    /// A key that is not 64 lowercase hexadecimal digits (a SHA-256, as every Bazel cache wants).
    case badKey(String)
    /// The header given by the environment variable named here is not `Name: value` lines (its
    /// value is not shown: it holds a secret).
    case badHeader(variable: String)
    /// No connection could be made to the server: its name does not resolve, or nothing listens
    /// there (the cause is libcurl's words).
    case unreachable(url: String, cause: String)
    /// The connection took longer than ``BazelRemoteCache/Options/connectTimeout`` to open, or
    /// nothing moved for ``BazelRemoteCache/Options/stallTimeout``.
    case timedOut(url: String, cause: String)
    /// The server wants credentials, or refused those sent (HTTP 401 or 407).
    case unauthorized(url: String, status: Int)
    /// The server answered with a status the request does not expect: a write refused (403,
    /// 405), a server error (5xx), a redirect not followed (3xx).
    case refused(url: String, status: Int)
    /// The connection broke midway, TLS failed, or a redirect was refused (the cause says which).
    case broken(url: String, cause: String)
    /// An entry of the content-addressed area whose bytes are not its key's SHA-256
    /// (``BazelRemoteCache/readVerified(_:)``): corrupt or poisoned; `actual` is their digest.
    case digestMismatch(url: String, actual: String)
    /// libcurl, which speaks HTTP, or libcrypto, whose SHA-256 checks entries, is not installed
    /// (the words name the package).
    case library(String)
    /// The task was cancelled before the request ended.
    case cancelled(url: String)

    /// The URL the error concerns (without credentials), when it concerns one.
    public var url: String? {
        switch self {
        case .badURL(let url, _): url
        case .badKey, .badHeader, .library: nil
        case .unreachable(let url, _), .timedOut(let url, _), .unauthorized(let url, _), .refused(let url, _), .broken(let url, _),
            .digestMismatch(let url, _), .cancelled(let url):
            url
        }
    }

    /// The URL and the cause: `http://cache:8080/cas/3f…: the cache refused: HTTP 403`.
    public var description: String { url.map { "\($0): \(reason)" } ?? reason }

    /// The cause alone, without ``url``: `the cache refused: HTTP 403`.
    public var reason: String {
        switch self {
        case .badURL(_, let reason): "not a cache URL: \(reason)"
        case .badKey(let key): "'\(key)' is not a cache key (64 lowercase hexadecimal digits)"
        case .badHeader(let variable): "\(variable) is not a header ('Name: value' lines; its value is not shown)"
        case .unreachable(_, let cause): "the cache is unreachable: \(cause)"
        case .timedOut(_, let cause): "the cache timed out: \(cause)"
        case .unauthorized(_, let status): "the cache wants other credentials: HTTP \(status)"
        case .refused(_, let status): "the cache refused: HTTP \(status)"
        case .broken(_, let cause): "the transfer failed: \(cause)"
        case .digestMismatch(_, let actual): "the entry's bytes are not its key's SHA-256 (they hash to \(actual))"
        case .library(let words): words
        case .cancelled: "cancelled"
        }
    }
}
