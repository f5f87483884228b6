import Foundation
import PreloadConcurrency

/// The response's status and headers, once every redirect was followed.
struct HTTPHead: Sendable {
    var status: Int
    /// Header names in lowercase.
    var headers: [String: String]

    /// Its `Content-Range` (`bytes A-B/T`, or `bytes A-B/*`) as its start and total.
    var contentRange: (start: Int64, total: Int64?)? {
        guard let text = headers["content-range"]?.trimmingCharacters(in: .whitespaces), text.lowercased().hasPrefix("bytes ") else {
            return nil
        }
        let spec = text.dropFirst(6)
        guard let dash = spec.firstIndex(of: "-"), let slash = spec.firstIndex(of: "/"), let start = Int64(spec[..<dash]) else {
            return nil
        }
        return (start, Int64(spec[spec.index(after: slash)...]))
    }
}

/// Why a transfer ended without its whole body.
enum HTTPTransportFailure: Error, Sendable, Equatable {
    /// The connection broke (the words say how); worth another attempt.
    case connection(String)
    /// No connection could be made: the host's name did not resolve, or it refused (the words
    /// say which); worth another attempt.
    case unreachable(String)
    /// The connection took longer than its timeout to open, or stalled (the words say which);
    /// worth another attempt.
    case timedOut(String)
    /// A redirect to a scheme other than http and https, or too many: final.
    case redirect(String)
    /// Not a URL the client can ask for: final.
    case badURL(String)
    /// TLS failed (the handshake, the server's certificate): final, another attempt meets the same.
    case tls(String)
    /// The HTTP library is not installed (its words name the package): final.
    case unavailable(String)
    /// The transfer was cancelled (by the fetcher: a stall, the caller, a handler's `false`).
    case cancelled
}

extension HTTPTransportFailure {
    /// The words of a failure worth another attempt (a connection broken, refused, timed out).
    var connectionWords: String? {
        switch self {
        case .connection(let words), .unreachable(let words), .timedOut(let words): words
        default: nil
        }
    }
}

/// One transfer in flight, to cancel.
protocol HTTPTransfer: Sendable {
    func cancel()
}

/// A request's method: a GET, a HEAD (the response's head alone) or a PUT of `bytes` (sent with
/// their `Content-Length`).
enum HTTPMethod: Sendable, Equatable {
    case get, head
    case put([UInt8])

    /// Its name on the wire.
    var name: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .put: "PUT"
        }
    }
}

/// Where a request's credentials may also come from, beside a `user:password@` in its URL
/// (which wins): the `machine` entry for the URL's host in a netrc file (libcurl reads it, as
/// `curl --netrc-optional` does; a file that does not exist is no error).
public enum NetrcSource: Sendable, Hashable {
    /// No netrc file is read.
    case none
    /// `~/.netrc` (in `$HOME`), when it exists.
    case home
    /// This file, when it exists.
    case file(String)
}

/// One HTTP request: its method, URL, headers and netrc.
struct HTTPRequest: Sendable {
    var method: HTTPMethod = .get
    var url: String
    var headers: [String: String] = [:]
    var netrc: NetrcSource = .none
}

/// The HTTP client a download uses: a request with headers, its head, then its body in chunks,
/// then its end. Each handler runs on the transport's threads, one at a time per transfer, in
/// that order; returning `false` from one stops the transfer (its end then says `.cancelled`).
protocol HTTPTransport: Sendable {
    func send(
        _ request: HTTPRequest,
        onHead: @escaping @Sendable (HTTPHead) -> Bool,
        onBody: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
        onEnd: @escaping @Sendable (HTTPTransportFailure?) -> Void
    ) -> any HTTPTransfer
}

extension HTTPTransport {
    /// A GET of `url` with `headers`.
    func get(
        _ url: String, headers: [String: String],
        onHead: @escaping @Sendable (HTTPHead) -> Bool,
        onBody: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
        onEnd: @escaping @Sendable (HTTPTransportFailure?) -> Void
    ) -> any HTTPTransfer {
        send(HTTPRequest(url: url, headers: headers), onHead: onHead, onBody: onBody, onEnd: onEnd)
    }

    /// Sends `request` and collects its head and whole body in memory (for small answers: a
    /// range, a cache entry); a task cancelled meanwhile cancels the transfer (its failure is
    /// then `.cancelled`). The head's status is 0 when no response came.
    func exchange(_ request: HTTPRequest) async -> (head: HTTPHead, body: [UInt8], failure: HTTPTransportFailure?) {
        let collected = CollectedResponse()
        let transfer = Locked<(any HTTPTransfer)?>(nil)
        let cancelled = Locked(false)
        let failure: HTTPTransportFailure? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let started = send(
                    request,
                    onHead: { head in
                        collected.head = head
                        return true
                    },
                    onBody: { bytes in
                        collected.body.append(contentsOf: bytes)
                        return true
                    },
                    onEnd: { continuation.resume(returning: $0) })
                transfer.withLock { $0 = started }
                if cancelled.withLock({ $0 }) { started.cancel() }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
            transfer.withLock { $0 }?.cancel()
        }
        return (collected.head, collected.body, failure)
    }
}

/// A response's head and body as a transport's thread delivers them (written by that one
/// thread, read after its end).
private final class CollectedResponse: @unchecked Sendable {
    var head = HTTPHead(status: 0, headers: [:])
    var body: [UInt8] = []
}
