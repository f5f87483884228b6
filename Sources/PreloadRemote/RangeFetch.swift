import Foundation
import Preload

/// Byte ranges of one remote file, as ``RemoteFetcher/fetchRanges(_:of:rangesPerRequest:ifRange:)``
/// brought them: what a pack patch fetches (the new pack's changed entries).
public struct FetchedRanges: Sendable {
    /// One range and its bytes.
    public struct Part: Sendable, Equatable {
        /// Where the bytes lie in the file.
        public let range: Range<UInt64>
        /// The bytes.
        public let bytes: [UInt8]
    }

    /// The ranges asked for, in order, each with its bytes.
    public var parts: [Part] = []
    /// Whether the server ignored `Range` (or the file changed, with `If-Range`) and sent the
    /// whole file, from which the ranges were cut: the update moved the whole file.
    public var cameWhole = false
    /// The whole file's bytes when ``cameWhole``.
    public var wholeFile: [UInt8]?
    /// HTTP requests made.
    public var requests = 0
    /// Body bytes received (a multipart answer's part headers included).
    public var networkBytes: UInt64 = 0
    /// The ETag the server gave, if any.
    public var etag: String?
}

extension RemoteFetcher {
    /// Fetches `ranges` of `url` with HTTP `Range` requests, `rangesPerRequest` ranges a
    /// request (a server that allows several answers with `multipart/byteranges`; 1 asks for one
    /// at a time). A server that answers 200 instead (it ignores `Range`, or the file no longer
    /// has the ETag `ifRange`) sends the whole file: the ranges are cut from it, no further
    /// request is made, and ``FetchedRanges/cameWhole`` says so. Throws
    /// ``RemoteFetchError`` for a failed status, a broken transfer or an answer that does not
    /// hold the ranges asked for. No retries: a caller that retries asks again.
    public func fetchRanges(
        _ ranges: [Range<UInt64>], of url: String, rangesPerRequest: Int = 16, ifRange: String? = nil
    ) async throws(RemoteFetchError) -> FetchedRanges {
        var fetched = FetchedRanges()
        var start = 0
        let step = max(1, rangesPerRequest)
        while start < ranges.count {
            let group = Array(ranges[start..<min(start + step, ranges.count)].filter { !$0.isEmpty })
            start += step
            guard !group.isEmpty else { continue }
            var headers = ["Range": "bytes=" + group.map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ",")]
            if let ifRange { headers["If-Range"] = ifRange }
            let (head, body) = try await get(url, headers: headers)
            fetched.requests += 1
            fetched.networkBytes += UInt64(body.count)
            fetched.etag = head.headers["etag"] ?? fetched.etag
            switch head.status {
            case 200:
                fetched.cameWhole = true
                fetched.wholeFile = body
                fetched.parts = try ranges.filter { !$0.isEmpty }.map { range throws(RemoteFetchError) in
                    guard range.upperBound <= UInt64(body.count) else { throw .mismatch("the whole file has \(body.count) bytes, less than asked") }
                    return .init(range: range, bytes: Array(body[Int(range.lowerBound)..<Int(range.upperBound)]))
                }
                return fetched
            case 206:
                let parts = try RangeAnswer.parts(of: head, body: body)
                for range in group {
                    guard let part = parts.first(where: { $0.range.lowerBound <= range.lowerBound && $0.range.upperBound >= range.upperBound }) else {
                        throw .mismatch("the answer does not hold bytes \(range.lowerBound)-\(range.upperBound - 1)")
                    }
                    let offset = Int(range.lowerBound - part.range.lowerBound)
                    fetched.parts.append(.init(range: range, bytes: Array(part.bytes[offset..<offset + range.count])))
                }
            default:
                throw .status(head.status, attempts: 1)
            }
        }
        return fetched
    }

    /// One GET of `url` with `headers`: its head and whole body.
    private func get(_ url: String, headers: [String: String]) async throws(RemoteFetchError) -> (HTTPHead, [UInt8]) {
        var headers = headers
        headers["User-Agent"] = configuration.userAgent
        headers["Accept-Encoding"] = "identity"
        let answer = await transport.exchange(HTTPRequest(url: url, headers: headers))
        if let failure = answer.failure { throw failure.oneAttempt(received: Int64(answer.body.count)) }
        return (answer.head, answer.body)
    }
}

extension HTTPTransportFailure {
    /// The fetch error of one request (no retries) that ended so, having received `received`
    /// body bytes.
    func oneAttempt(received: Int64) -> RemoteFetchError {
        switch self {
        case .redirect(let detail): .redirect(detail)
        case .badURL(let detail): .badURL(detail)
        case .unavailable(let detail): .library(detail)
        case .cancelled: .cancelled
        case .connection(let cause), .unreachable(let cause), .timedOut(let cause), .tls(let cause):
            .transfer(TransferFailure(cause: cause, attempts: 1, cuts: 1, received: received))
        }
    }
}

/// A 206 answer's ranges: one (`Content-Range`) or several (`multipart/byteranges`, RFC 9110
/// §14.6: each part's `Content-Range` header and its bytes, read by length).
enum RangeAnswer {
    static func parts(of head: HTTPHead, body: [UInt8]) throws(RemoteFetchError) -> [FetchedRanges.Part] {
        let type = head.headers["content-type"] ?? ""
        guard type.lowercased().hasPrefix("multipart/byteranges") else {
            guard let range = head.contentRange else { throw .mismatch("a 206 answer without a Content-Range") }
            return [.init(range: UInt64(range.start)..<UInt64(range.start) + UInt64(body.count), bytes: body)]
        }
        guard let boundaryStart = type.range(of: "boundary=") else { throw .mismatch("a multipart answer without its boundary") }
        let boundary = Array(("--" + type[boundaryStart.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))).utf8)
        var parts: [FetchedRanges.Part] = []
        var cursor = 0
        while let at = find(boundary, in: body, from: cursor) {
            var position = at + boundary.count
            if body[position..<min(position + 2, body.count)].elementsEqual("--".utf8) { break }  // the closing delimiter
            guard let headersEnd = find(Array("\r\n\r\n".utf8), in: body, from: position) else { throw .mismatch("a part's headers do not end") }
            let text = String(decoding: body[position..<headersEnd], as: UTF8.self)
            var partHeaders: [String: String] = [:]
            for line in text.split(separator: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                partHeaders[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard let spec = partHeaders["content-range"], let range = contentRange(spec) else { throw .mismatch("a part without a Content-Range") }
            position = headersEnd + 4
            guard position + range.count <= body.count else { throw .mismatch("a part is cut short") }
            parts.append(.init(range: range, bytes: Array(body[position..<position + range.count])))
            cursor = position + range.count
        }
        return parts
    }

    /// `bytes A-B/T` as `A..<B+1`.
    static func contentRange(_ text: String) -> Range<UInt64>? {
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        guard let span = text.dropFirst(6).split(separator: "/").first else { return nil }
        let spec = span.split(separator: "-")
        guard spec.count == 2, let first = UInt64(spec[0]), let last = UInt64(spec[1]), last >= first else { return nil }
        return first..<last + 1
    }

    /// Where `needle` next occurs in `haystack` from `start`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
