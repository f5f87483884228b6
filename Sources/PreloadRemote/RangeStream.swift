import Foundation
import Preload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one request of ``RemoteFetcher/streamRanges(_:of:ifRange:length:into:whole:progress:)``
/// brought.
struct StreamedRanges: Sendable {
    /// The answer's status (0 when none came).
    var status = 0
    /// The ETag the server gave, if any.
    var etag: String?
    /// Body bytes received (a multipart answer's part headers included).
    var received: UInt64 = 0
    /// Whether the server answered 200 (the whole file) where the request did not take it: its
    /// body was not read.
    var refusedWhole = false
}

extension RemoteFetcher {
    /// The most ranges one request asks for, and the longest `Range` header it sends.
    static let rangesPerRequest = (count: 64, headerBytes: 8 << 10)

    /// `ranges` cut into the groups one request each asks for: at most
    /// ``rangesPerRequest`` ranges and header bytes a request, `perRequest` ranges at most.
    static func requestGroups(_ ranges: [Range<UInt64>], perRequest: Int) -> [[Range<UInt64>]] {
        var groups: [[Range<UInt64>]] = []
        var group: [Range<UInt64>] = []
        var header = 6
        for range in ranges where !range.isEmpty {
            let spec = "\(range.lowerBound)-\(range.upperBound - 1),".utf8.count
            if !group.isEmpty && (group.count >= min(perRequest, rangesPerRequest.count) || header + spec > rangesPerRequest.headerBytes) {
                groups.append(group)
                (group, header) = ([], 6)
            }
            group.append(range)
            header += spec
        }
        if !group.isEmpty { groups.append(group) }
        return groups
    }

    /// Fetches byte ranges of `url` (of `length` bytes; none: the whole file) in one request (`Range: bytes=a-b,c-d,…`,
    /// with `If-Range: ifRange` when given) and writes their bytes, as they arrive, at their
    /// offsets in the file open as `descriptor` (never held in memory); `progress` gets each
    /// run written (its range) as it lands, so that a transfer cut midway keeps what came. The
    /// server may answer with the ranges as parts of a `multipart/byteranges` body, or as one
    /// range (the first, or one span holding several): whatever it sends is written where it
    /// belongs, and the caller asks again for what is still missing. A 200 (the whole file) is
    /// written from offset 0 when `whole` is set, else refused unread (``StreamedRanges/refusedWhole``).
    /// Throws ``RemoteFetchError`` for a broken transfer (what arrived was written and
    /// reported), a status other than 200 or 206, or an answer that is not a range of the file.
    func streamRanges(
        _ ranges: [Range<UInt64>], of url: String, ifRange: String?, length: UInt64, into descriptor: Int32, whole: Bool = false,
        progress: @escaping @Sendable (Range<UInt64>) -> Void
    ) async throws(RemoteFetchError) -> StreamedRanges {
        final class Stream: @unchecked Sendable {  // written by the transport's one thread, read after its end
            var status = 0
            var next: UInt64 = 0
            var end: UInt64 = 0
            var multipart: MultipartStream?
            var answer = StreamedRanges()
            var problem: RemoteFetchError?
        }
        let stream = Stream()
        var headers = ["User-Agent": configuration.userAgent, "Accept-Encoding": "identity"]
        if !ranges.isEmpty { headers["Range"] = "bytes=" + ranges.map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: ",") }
        if let ifRange { headers["If-Range"] = ifRange }
        /// Writes `bytes` at `offset` of the file and reports them.
        @Sendable func land(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) -> Bool {
            var written = 0
            while written < bytes.count {
                let result = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset) + off_t(written))
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else {
                    stream.problem = .cache("cannot write the fetched bytes of \(url): \(String(cString: strerror(errno)))")
                    return false
                }
                written += result
            }
            if !bytes.isEmpty { progress(offset..<offset + UInt64(bytes.count)) }
            return true
        }
        let failure: HTTPTransportFailure? = await withCheckedContinuation { continuation in
            _ = transport.get(
                url, headers: headers,
                onHead: { head in
                    stream.status = head.status
                    (stream.answer.status, stream.answer.etag) = (head.status, head.headers["etag"])
                    switch head.status {
                    case 200 where whole:
                        (stream.next, stream.end) = (0, length)
                    case 200:
                        stream.answer.refusedWhole = true
                        return false
                    case 206:
                        if let multipart = MultipartStream(contentType: head.headers["content-type"] ?? "", length: length) {
                            stream.multipart = multipart
                        } else if let answered = head.contentRange, answered.start >= 0, UInt64(answered.start) < length {
                            (stream.next, stream.end) = (UInt64(answered.start), length)
                        } else {
                            stream.problem = .mismatch("\(url): a 206 answer without a Content-Range within the file's \(length) bytes")
                            return false
                        }
                    default:
                        return false
                    }
                    return true
                },
                onBody: { bytes in
                    stream.answer.received += UInt64(bytes.count)
                    if stream.multipart != nil {
                        do throws(RemoteFetchError) { return try stream.multipart!.consume(bytes, write: land) } catch {
                            stream.problem = error
                            return false
                        }
                    }
                    guard UInt64(bytes.count) <= stream.end - stream.next else {
                        stream.problem = .mismatch("\(url): the answer runs past the file's \(length) bytes")
                        return false
                    }
                    defer { stream.next += UInt64(bytes.count) }
                    return land(bytes, at: stream.next)
                },
                onEnd: { continuation.resume(returning: $0) })
        }
        if let problem = stream.problem { throw problem }
        if stream.answer.refusedWhole { return stream.answer }
        if stream.status != 0 && stream.status != 206 && stream.status != 200 { throw .status(stream.status, attempts: 1) }
        if let failure { throw failure.oneAttempt(received: Int64(stream.answer.received)) }
        return stream.answer
    }
}
