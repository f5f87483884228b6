import Foundation
import Preload

/// A client of the Bazel remote-cache HTTP protocol: `GET`, `PUT` and `HEAD` of
/// `URL/cas/<sha256>` (content-addressed blobs, keyed by their bytes' SHA-256) and
/// `URL/ac/<key>` (the "action cache": any bytes under a key the client chooses), which
/// bazel-remote, nginx with WebDAV and S3-compatible gateways serve. It knows nothing of what
/// the bytes are: a shared cache of any build step sits on it.
///
/// - **Credentials**, from the usual places, never shown (not in ``displayURL``, not in a
///   ``BazelCacheError``): a `user:password@` in the URL (percent-encoded), else the URL's host
///   in `~/.netrc` (``Options/netrc``), and headers from the environment variable
///   `PRELOAD_BAKE_CACHE_HEADER` (``Options/headerVariable``: `Authorization: Bearer …`, one
///   `Name: value` a line).
/// - **Failures** are typed and name the entry's URL: ``BazelCacheError/unreachable(url:cause:)``
///   (a server down fails at once, or within ``Options/connectTimeout``),
///   ``BazelCacheError/refused(url:status:)``, ``BazelCacheError/unauthorized(url:status:)``,
///   ``BazelCacheError/timedOut(url:cause:)``. One request, no retry: a cache is an
///   optimisation, and its caller goes on without it.
/// - **Integrity** is the caller's: ``read(_:_:)`` returns the bytes as served;
///   ``readVerified(_:)`` reads a `cas` entry and checks its SHA-256 against its key.
///
/// ```swift
/// import PreloadRemote
///
/// let cache = try BazelRemoteCache(url: "http://cache.studio.lan:8080")
/// let key = String(repeating: "ab", count: 32)  // a SHA-256, in hexadecimal
/// try await cache.write(.ac, key, Array("baked bytes".utf8))
/// if let bytes = try await cache.read(.ac, key) { print("\(bytes.count) bytes from \(cache.displayURL)") }
/// ```
public struct BazelRemoteCache: Sendable {
    /// The two areas of the protocol.
    public enum Area: String, Sendable, CaseIterable {
        /// Content-addressed: an entry's key is its bytes' SHA-256.
        case cas
        /// Keyed by the client (Bazel's action cache): any bytes under any SHA-256-shaped key.
        case ac
    }

    /// How the client connects and authenticates.
    public struct Options: Sendable {
        /// The longest a connection may take to open (5 s by default); a server that refuses
        /// fails at once.
        public var connectTimeout: Duration
        /// A request that sends or receives nothing for this long fails with
        /// ``BazelCacheError/timedOut(url:cause:)`` (30 s by default; whole seconds).
        public var stallTimeout: Duration
        /// Redirects followed (none by default: a redirect fails with its status). Headers,
        /// ``headerVariable``'s among them, go to the redirect's target too.
        public var maxRedirects: Int
        /// Where credentials for the URL's host come from when the URL has none
        /// (``NetrcSource/home``, `~/.netrc`, by default; a missing file is no error).
        public var netrc: NetrcSource
        /// The environment variable whose value is sent as headers, `Name: value` a line
        /// (`PRELOAD_BAKE_CACHE_HEADER` by default; nil reads none).
        public var headerVariable: String?
        /// The environment ``headerVariable`` is read from (the process's by default).
        public var environment: [String: String]
        /// More headers sent with every request (after ``headerVariable``'s, which they replace
        /// by name).
        public var headers: [String: String]
        /// The `User-Agent` header.
        public var userAgent: String

        /// The defaults described on each property.
        public init(
            connectTimeout: Duration = .seconds(5), stallTimeout: Duration = .seconds(30), maxRedirects: Int = 0,
            netrc: NetrcSource = .home, headerVariable: String? = "PRELOAD_BAKE_CACHE_HEADER",
            environment: [String: String] = ProcessInfo.processInfo.environment, headers: [String: String] = [:],
            userAgent: String = "Preload"
        ) {
            self.connectTimeout = connectTimeout
            self.stallTimeout = stallTimeout
            self.maxRedirects = max(0, maxRedirects)
            self.netrc = netrc
            self.headerVariable = headerVariable
            self.environment = environment
            self.headers = headers
            self.userAgent = userAgent
        }
    }

    private let address: CacheAddress
    private let headers: [String: String]
    private let netrc: NetrcSource
    private let transport: any HTTPTransport

    /// The cache's URL without its credentials (and without a trailing slash): what messages show.
    public var displayURL: String { address.display }

    /// A client of the cache at `url` (`http://` or `https://`, a path allowed, no query);
    /// throws ``BazelCacheError/badURL(_:reason:)`` for another URL and
    /// ``BazelCacheError/badHeader(variable:)`` when ``Options/headerVariable``'s value is not
    /// headers. Nothing is sent until the first request.
    public init(url: String, options: Options = Options()) throws(BazelCacheError) {
        let transport = CurlTransport(
            userAgent: options.userAgent, maxRedirects: options.maxRedirects, connectTimeout: options.connectTimeout,
            lowSpeedTime: options.stallTimeout)
        try self.init(url: url, options: options, transport: transport)
    }

    init(url: String, options: Options, transport: any HTTPTransport) throws(BazelCacheError) {
        var address = try CacheAddress(url)
        var headers: [String: String] = [:]
        if let variable = options.headerVariable, let value = options.environment[variable] {
            headers = try CacheAddress.headers(value, variable: variable)
        }
        headers.merge(options.headers) { $1 }
        for value in headers.values { address.keepSecret(value) }
        headers["User-Agent"] = options.userAgent
        headers["Accept-Encoding"] = "identity"
        self.address = address
        self.headers = headers
        self.netrc = options.netrc
        self.transport = transport
    }

    /// The entry's URL as shown: ``displayURL``, the area, the key.
    public func displayURL(_ area: Area, _ key: String) -> String { "\(address.display)/\(area.rawValue)/\(key)" }

    /// The bytes of the entry `key` of `area` (`GET`), or nil when the cache has none (404).
    /// A `cas` entry's bytes are not checked against its key here: ``readVerified(_:)`` does.
    public func read(_ area: Area, _ key: String) async throws(BazelCacheError) -> [UInt8]? {
        let (status, body) = try await send(.get, area, key)
        switch status {
        case 200: return body
        case 404: return nil
        default: throw failure(status: status, area, key)
        }
    }

    /// The bytes of the `cas` entry `digest` (`GET`), checked: nil when the cache has none,
    /// ``BazelCacheError/digestMismatch(url:actual:)`` when their SHA-256 is not `digest` (a
    /// corrupt or poisoned entry, which the caller replaces by writing the right bytes).
    public func readVerified(_ digest: String) async throws(BazelCacheError) -> [UInt8]? {
        guard let bytes = try await read(.cas, digest) else { return nil }
        let actual: String
        do {
            actual = try SHA256.hash(data: bytes).hexString
        } catch {
            throw .library(error.description)
        }
        guard actual == digest else { throw .digestMismatch(url: displayURL(.cas, digest), actual: actual) }
        return bytes
    }

    /// Stores `bytes` as the entry `key` of `area` (`PUT`, with their `Content-Length`),
    /// replacing any entry there. A `cas` entry's key should be the bytes' SHA-256 (bazel-remote
    /// refuses another).
    public func write(_ area: Area, _ key: String, _ bytes: [UInt8]) async throws(BazelCacheError) {
        let (status, _) = try await send(.put(bytes), area, key)
        guard [200, 201, 204].contains(status) else { throw failure(status: status, area, key) }
    }

    /// Whether the cache holds the entry `key` of `area` (`HEAD`: no body moves).
    public func contains(_ area: Area, _ key: String) async throws(BazelCacheError) -> Bool {
        let (status, _) = try await send(.head, area, key)
        switch status {
        case 200: return true
        case 404: return false
        default: throw failure(status: status, area, key)
        }
    }

    /// One request for the entry: its status and body, or why it has none.
    private func send(_ method: HTTPMethod, _ area: Area, _ key: String) async throws(BazelCacheError) -> (Int, [UInt8]) {
        guard key.utf8.count == 64, key.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw .badKey(address.scrub(key))
        }
        let request = HTTPRequest(method: method, url: "\(address.base)/\(area.rawValue)/\(key)", headers: headers, netrc: netrc)
        let answer = await transport.exchange(request)
        let url = displayURL(area, key)
        switch answer.failure {
        case nil: return (answer.head.status, answer.body)
        case .unreachable(let words): throw .unreachable(url: url, cause: address.scrub(words))
        case .timedOut(let words): throw .timedOut(url: url, cause: address.scrub(words))
        case .connection(let words), .tls(let words), .redirect(let words), .badURL(let words): throw .broken(url: url, cause: address.scrub(words))
        case .unavailable(let words): throw .library(words)
        case .cancelled: throw .cancelled(url: url)
        }
    }

    /// The error of an answer with an unexpected `status`.
    private func failure(status: Int, _ area: Area, _ key: String) -> BazelCacheError {
        status == 401 || status == 407
            ? .unauthorized(url: displayURL(area, key), status: status) : .refused(url: displayURL(area, key), status: status)
    }
}
