import CPreloadCurl
import Foundation
import Preload
import PreloadConcurrency

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// ``HTTPTransport`` over libcurl's easy interface (``LibCurl``), a thread per transfer: its
/// own redirects (http and https only, at most ``RemoteFetcher/Configuration/maxRedirects``),
/// TLS peers verified, 512 KiB reads handed straight to the download. Chosen over Foundation's
/// `URLSession` and AsyncHTTPClient by measurement (docs/benchmarks.md, "Issue 38"): corelibs'
/// `URLSession` delivered a 100 MB file over loopback at half of `curl`'s speed (and buffered
/// without limit), and AsyncHTTPClient would add five minutes to every clean build.
struct CurlTransport: HTTPTransport {
    let userAgent: String
    let maxRedirects: Int
    let connectTimeout: Duration
    let stallTimeout: Duration

    init(configuration: RemoteFetcher.Configuration) {
        userAgent = configuration.userAgent
        maxRedirects = configuration.maxRedirects
        connectTimeout = configuration.retries.connectTimeout
        stallTimeout = configuration.retries.stallTimeout
    }

    func get(
        _ url: String, headers: [String: String], onHead: @escaping @Sendable (HTTPHead) -> Bool,
        onBody: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool, onEnd: @escaping @Sendable (HTTPTransportFailure?) -> Void
    ) -> any HTTPTransfer {
        let curl: LibCurl
        do {
            curl = try LibCurl.shared.get()
        } catch {
            onEnd(.unavailable("\(error)"))  // final: another attempt would not find it either
            return CurlTransfer(onHead: onHead, onBody: onBody, onEnd: { _ in })
        }
        let transfer = CurlTransfer(onHead: onHead, onBody: onBody, onEnd: onEnd)
        let lines = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        // The stall timeout is the download's to watch (to the millisecond); libcurl's own
        // low-speed cut, in whole seconds, is a backstop.
        let lowSpeed = max(1, Int((2 * stallTimeout.timeInterval).rounded(.up)))
        let connect = max(1, Int(connectTimeout.timeInterval * 1000))
        Thread.detachNewThread { [self] in
            transfer.run(
                curl: curl, url: url, headers: lines, userAgent: userAgent, maxRedirects: maxRedirects, connectMilliseconds: connect,
                lowSpeedSeconds: lowSpeed)
        }
        return transfer
    }
}

/// One transfer: what libcurl's callbacks tell it, turned into the download's head, body and
/// end; its socket, to cut it at once when cancelled.
final class CurlTransfer: HTTPTransfer, @unchecked Sendable {
    // @unchecked: the parse state is touched only by the transfer's own thread (libcurl's
    // callbacks run there, one at a time); what other threads touch is in `shared`.
    private let onHead: @Sendable (HTTPHead) -> Bool
    private let onBody: @Sendable (UnsafeRawBufferPointer) -> Bool
    private let onEnd: @Sendable (HTTPTransportFailure?) -> Void
    private struct Shared {
        var stopped = false
        /// The connection's open socket, shut down by ``cancel()``.
        var socket: Int32 = -1
    }
    private let shared = Locked(Shared())
    private var stoppedFlag: Bool { shared.withLock { $0.stopped } }
    /// The response whose headers are being read.
    private var status = 0
    private var headers: [String: String] = [:]
    private var headDelivered = false
    /// The Location of the last redirect followed, for a redirect libcurl then refuses.
    private var redirectingTo: String?
    /// Redirects it follows.
    private var maxRedirects = 0

    init(
        onHead: @escaping @Sendable (HTTPHead) -> Bool, onBody: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
        onEnd: @escaping @Sendable (HTTPTransportFailure?) -> Void
    ) {
        self.onHead = onHead
        self.onBody = onBody
        self.onEnd = onEnd
    }

    /// Stops the transfer: its socket is shut down, so a read waiting for bytes returns now.
    func cancel() {
        shared.withLock { shared in
            shared.stopped = true
            if shared.socket >= 0 { shutdown(shared.socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Runs the transfer on this thread, then reports its end.
    func run(curl: LibCurl, url: String, headers: [String], userAgent: String, maxRedirects: Int, connectMilliseconds: Int, lowSpeedSeconds: Int) {
        self.maxRedirects = maxRedirects
        var api = curl.api
        var error = [CChar](repeating: 0, count: 256)
        var status = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        var callbacks = preload_curl_callbacks(
            context: context,
            header: { context, line, length in
                Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().header(UnsafeRawBufferPointer(start: line, count: length)) ? 1 : 0
            },
            body: { context, bytes, length in
                Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().body(UnsafeRawBufferPointer(start: bytes, count: length)) ? 1 : 0
            },
            socket: { context, descriptor, opened in
                Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().socket(descriptor, opened: opened != 0)
            },
            stopped: { context in Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().stoppedFlag ? 1 : 0 })
        let result = withExtendedLifetime(self) {
            Self.withCStrings(headers) { lines in
                preload_curl_get(
                    &api, url, lines, Int32(headers.count), userAgent, maxRedirects, connectMilliseconds, lowSpeedSeconds, &status, &error,
                    &callbacks)
            }
        }
        let words = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        onEnd(failure(result: result, words: words))
    }

    private func failure(result: Int32, words: String) -> HTTPTransportFailure? {
        if stoppedFlag { return .cancelled }
        switch Int(result) {
        case Int(PRELOAD_CURLE_OK): return nil
        case Int(PRELOAD_CURLE_TOO_MANY_REDIRECTS): return .redirect("more than \(maxRedirects) redirects")
        case Int(PRELOAD_CURLE_UNSUPPORTED_PROTOCOL):
            if let location = redirectingTo { return .redirect("to \(location), which is not http or https") }
            return .badURL(words)
        case Int(PRELOAD_CURLE_URL_MALFORMAT): return .badURL(words)
        case 35, 58, 59, 60, 77, 83, 90, 91: return .tls(words)  // the handshake, a certificate, the peer's key
        case Int(PRELOAD_CURLE_WRITE_ERROR), Int(PRELOAD_CURLE_ABORTED_BY_CALLBACK): return .cancelled  // a handler said stop
        default: return .connection(words.isEmpty ? "libcurl error \(result)" : "\(words) (libcurl error \(result))")
        }
    }

    // MARK: libcurl's callbacks (on the transfer's thread)

    /// A header line: a status line starts a response, a blank line ends its headers, and the
    /// head of a response that is not a redirect libcurl follows goes to the download.
    private func header(_ line: UnsafeRawBufferPointer) -> Bool {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            let parts = text.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = [:]
            return true
        }
        if text.isEmpty {
            if (100..<200).contains(status) { return true }  // an interim response: the real one follows
            if [301, 302, 303, 307, 308].contains(status), let location = headers["location"] {
                redirectingTo = location  // libcurl follows it (or refuses it: its end says why)
                return true
            }
            guard !headDelivered else { return true }
            headDelivered = true
            return onHead(HTTPHead(status: status, headers: headers))
        }
        if let colon = text.firstIndex(of: ":") {
            headers[text[..<colon].lowercased()] = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return true
    }

    private func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard headDelivered else { return true }  // a redirect's own body
        return onBody(bytes)
    }

    private func socket(_ descriptor: Int32, opened: Bool) {
        shared.withLock { shared in
            if opened {
                shared.socket = descriptor
                if shared.stopped { shutdown(descriptor, Int32(SHUT_RDWR)) }
            } else if shared.socket == descriptor {
                shared.socket = -1  // libcurl closes it as this returns: never shut down a reused number
            }
        }
    }

    /// `strings` as C strings, for the duration of `body`.
    private static func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
