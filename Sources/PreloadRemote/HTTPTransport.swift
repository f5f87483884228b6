import Foundation

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
    /// The connection could not be made, or broke (the words say how); worth another attempt.
    case connection(String)
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

/// One transfer in flight, to cancel.
protocol HTTPTransfer: Sendable {
    func cancel()
}

/// The HTTP client a download uses: a GET with headers, its head, then its body in chunks, then
/// its end. Each handler runs on the transport's threads, one at a time per transfer, in that
/// order; returning `false` from one stops the transfer (its end then says `.cancelled`).
protocol HTTPTransport: Sendable {
    func get(
        _ url: String, headers: [String: String],
        onHead: @escaping @Sendable (HTTPHead) -> Bool,
        onBody: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
        onEnd: @escaping @Sendable (HTTPTransportFailure?) -> Void
    ) -> any HTTPTransfer
}
