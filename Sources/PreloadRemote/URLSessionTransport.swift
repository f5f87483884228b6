import Foundation
import FoundationNetworking
import PreloadConcurrency

/// ``HTTPTransport`` over Foundation's `URLSession` (libcurl underneath, on Linux): one
/// ephemeral session (no cookies, no URL cache, TLS verified), a serial delegate queue that
/// hands each task's head and body chunks to its handlers, redirects checked here (http and
/// https only, at most ``RemoteFetcher/Configuration/maxRedirects``). Chosen over
/// AsyncHTTPClient by measurement (docs/benchmarks.md, "Issue 38").
final class URLSessionTransport: NSObject, HTTPTransport, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `session` is set once in init; everything that changes is in `tasks`, behind its lock.

    /// What one task's handlers are, and what happened to it so far.
    private struct TaskHandlers {
        let onHead: @Sendable (HTTPHead) -> Bool
        let onBody: @Sendable (UnsafeRawBufferPointer) -> Bool
        let onEnd: @Sendable (HTTPTransportFailure?) -> Void
        var redirects = 0
        var failure: HTTPTransportFailure?
    }

    private let maxRedirects: Int
    private let tasks = Locked([Int: TaskHandlers]())
    private var session: URLSession!

    init(configuration: RemoteFetcher.Configuration) {
        maxRedirects = configuration.maxRedirects
        super.init()
        let settings = URLSessionConfiguration.ephemeral
        settings.urlCache = nil
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.httpCookieStorage = nil
        settings.httpShouldSetCookies = false
        // The download watches for stalls itself (to the millisecond); libcurl's timer under
        // corelibs counts whole seconds (0.6 s times out at once), so this is only a backstop.
        settings.timeoutIntervalForRequest = max(1, (2 * configuration.retries.stallTimeout.timeInterval).rounded(.up))
        settings.timeoutIntervalForResource = 7 * 24 * 3600
        settings.httpMaximumConnectionsPerHost = configuration.maxConcurrentDownloads
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "preload.remote.session"
        session = URLSession(configuration: settings, delegate: self, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// A task in flight.
    private struct Transfer: HTTPTransfer {
        let task: URLSessionDataTask
        func cancel() { task.cancel() }
    }

    /// A transfer that never started (a URL that cannot be asked for): its end is already sent.
    private struct NoTransfer: HTTPTransfer {
        func cancel() {}
    }

    func get(
        _ url: String, headers: [String: String], onHead: @escaping @Sendable (HTTPHead) -> Bool,
        onBody: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool, onEnd: @escaping @Sendable (HTTPTransportFailure?) -> Void
    ) -> any HTTPTransfer {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
            parsed.host != nil
        else {
            onEnd(.badURL(url))
            return NoTransfer()
        }
        var request = URLRequest(url: parsed)
        request.httpMethod = "GET"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: request)
        tasks.withLock { $0[task.taskIdentifier] = TaskHandlers(onHead: onHead, onBody: onBody, onEnd: onEnd) }
        task.resume()
        return Transfer(task: task)
    }

    // MARK: URLSessionDataDelegate (on the serial delegate queue)

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // The Location as the server wrote it: corelibs turns a `file:///etc/passwd` into a
        // path on the same server, so the new request alone does not show what was asked for.
        let location = response.value(forHTTPHeaderField: "Location") ?? request.url?.absoluteString ?? ""
        let scheme = Self.scheme(of: location) ?? request.url?.scheme?.lowercased()
        let refusal = tasks.withLock { tasks -> HTTPTransportFailure? in
            guard var handlers = tasks[task.taskIdentifier] else { return .cancelled }
            handlers.redirects += 1
            if scheme != "http" && scheme != "https" {
                handlers.failure = .redirect("to \(location), which is not http or https")
            } else if handlers.redirects > maxRedirects {
                handlers.failure = .redirect("more than \(maxRedirects) redirects")
            }
            tasks[task.taskIdentifier] = handlers
            return handlers.failure
        }
        // Refused: the redirect itself comes as the response, which the task then cancels (a
        // cancel here, with the redirect's completion pending, traps in corelibs).
        completionHandler(refusal == nil ? request : nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse, let handlers = tasks.withLock({ $0[dataTask.taskIdentifier] }),
            handlers.failure == nil
        else {
            completionHandler(.cancel)
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        completionHandler(handlers.onHead(HTTPHead(status: http.statusCode, headers: headers)) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let handlers = tasks.withLock({ $0[dataTask.taskIdentifier] }) else { return }
        guard handlers.failure == nil else {  // a refused redirect's own body
            dataTask.cancel()
            return
        }
        let goesOn = data.withUnsafeBytes { handlers.onBody($0) }
        if !goesOn { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let handlers = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = handlers.failure { return handlers.onEnd(failure) }
        guard let error else { return handlers.onEnd(nil) }
        let code = (error as NSError).code
        if code == NSURLErrorCancelled { return handlers.onEnd(.cancelled) }
        if code == NSURLErrorUnsupportedURL || code == NSURLErrorBadURL { return handlers.onEnd(.badURL(error.localizedDescription)) }
        handlers.onEnd(.connection(Self.describe(error)))
    }

    /// The scheme of an absolute URL (`file` of `file:///x`), in lowercase; `nil` for a
    /// relative reference (`/next`, `//host/next`, `next`).
    static func scheme(of reference: String) -> String? {
        guard let colon = reference.firstIndex(of: ":") else { return nil }
        let scheme = reference[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return scheme.lowercased()
    }

    /// An error in a few words: the library's description, with its code.
    private static func describe(_ error: any Error) -> String {
        let error = error as NSError
        let words: String =
            switch error.code {
            case NSURLErrorTimedOut: "timed out (nothing received)"
            case NSURLErrorCannotConnectToHost: "connection refused"
            case NSURLErrorNetworkConnectionLost: "connection lost"
            case NSURLErrorCannotFindHost: "host not found"
            case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
                NSURLErrorServerCertificateNotYetValid, NSURLErrorServerCertificateHasUnknownRoot:
                "TLS failed: \(error.localizedDescription)"
            default: error.localizedDescription
            }
        return "\(words) (URL error \(error.code))"
    }
}
