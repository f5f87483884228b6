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
    let connectMilliseconds: Int
    /// libcurl's own low-speed cut, in whole seconds.
    let lowSpeedSeconds: Int

    /// A transport for a download: the stall timeout is the download's to watch (to the
    /// millisecond); libcurl's own low-speed cut, at twice that, is a backstop.
    init(configuration: RemoteFetcher.Configuration) {
        self.init(
            userAgent: configuration.userAgent, maxRedirects: configuration.maxRedirects,
            connectTimeout: configuration.retries.connectTimeout, lowSpeedTime: configuration.retries.stallTimeout * 2)
    }

    /// A transport that connects within `connectTimeout` and cuts a transfer that receives or
    /// sends nothing for `lowSpeedTime` (rounded up to whole seconds).
    init(userAgent: String, maxRedirects: Int, connectTimeout: Duration, lowSpeedTime: Duration) {
        self.userAgent = userAgent
        self.maxRedirects = max(0, maxRedirects)
        connectMilliseconds = max(1, Int(connectTimeout.timeInterval * 1000))
        lowSpeedSeconds = max(1, Int(lowSpeedTime.timeInterval.rounded(.up)))
    }

    func send(
        _ request: HTTPRequest, onHead: @escaping @Sendable (HTTPHead) -> Bool,
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
        Thread.detachNewThread { [self] in
            transfer.run(curl: curl, request: request, transport: self)
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

    /// Runs `request` on this thread, then reports its end.
    func run(curl: LibCurl, request: HTTPRequest, transport: CurlTransport) {
        self.maxRedirects = transport.maxRedirects
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
        let lines = request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let (method, upload): (Int32, [UInt8]) =
            switch request.method {
            case .get: (Int32(PRELOAD_CURL_GET), [])
            case .head: (Int32(PRELOAD_CURL_HEAD), [])
            case .put(let bytes): (Int32(PRELOAD_CURL_PUT), bytes)
            }
        let netrcFile: String? = if case .file(let path) = request.netrc { path } else { nil }
        let result = withExtendedLifetime(self) {
            Self.withCStrings(lines + [request.url, transport.userAgent, netrcFile ?? ""]) { strings in
                upload.withUnsafeBytes { upload in
                    var options = preload_curl_request(
                        url: strings[lines.count], method: method, upload: upload.baseAddress, upload_length: upload.count,
                        headers: strings.baseAddress, header_count: Int32(lines.count), user_agent: strings[lines.count + 1],
                        max_redirects: transport.maxRedirects, connect_timeout_ms: transport.connectMilliseconds,
                        low_speed_seconds: transport.lowSpeedSeconds, netrc: request.netrc == .none ? 0 : 1,
                        netrc_file: netrcFile == nil ? nil : strings[lines.count + 2])
                    return preload_curl_perform(&api, &options, &status, &error, &callbacks)
                }
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
        case Int(PRELOAD_CURLE_COULDNT_RESOLVE_PROXY), Int(PRELOAD_CURLE_COULDNT_RESOLVE_HOST), Int(PRELOAD_CURLE_COULDNT_CONNECT):
            return .unreachable(words.isEmpty ? "libcurl error \(result)" : words)
        case Int(PRELOAD_CURLE_OPERATION_TIMEDOUT): return .timedOut(words.isEmpty ? "libcurl error \(result)" : words)
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
            if maxRedirects > 0, [301, 302, 303, 307, 308].contains(status), let location = headers["location"] {
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
    private static func withCStrings<Result>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0) }
    }
}
