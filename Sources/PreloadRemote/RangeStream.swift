import Foundation
import Preload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension RemoteFetcher {
    /// Fetches one byte range of `url` (a `Range` request, with `If-Range: ifRange` when given)
    /// and writes its bytes, as they arrive, at their offsets in the file open as `descriptor`;
    /// `progress` gets each piece written (its range) as it lands, so that a transfer cut midway
    /// keeps what came. Returns the body bytes received. Throws ``RemoteFetchError`` for a
    /// broken transfer (what arrived was written and reported), a status other than 206, or an
    /// answer for another range (`.mismatch`; a 200, the whole file, is refused unread: the
    /// server ignores `Range`, or the file changed since `ifRange`).
    func streamRange(
        _ range: Range<UInt64>, of url: String, ifRange: String?, into descriptor: Int32,
        progress: @escaping @Sendable (Range<UInt64>) -> Void
    ) async throws(RemoteFetchError) -> UInt64 {
        final class Stream: @unchecked Sendable {  // written by the transport's one thread, read after its end
            var status = 0
            var next: UInt64 = 0
            var received: UInt64 = 0
            var problem: RemoteFetchError?
        }
        let stream = Stream()
        var headers = [
            "Range": "bytes=\(range.lowerBound)-\(range.upperBound - 1)", "User-Agent": configuration.userAgent, "Accept-Encoding": "identity",
        ]
        if let ifRange { headers["If-Range"] = ifRange }
        let failure: HTTPTransportFailure? = await withCheckedContinuation { continuation in
            _ = transport.get(
                url, headers: headers,
                onHead: { head in
                    stream.status = head.status
                    guard head.status == 206 else { return false }
                    guard let answered = head.contentRange, answered.start == Int64(range.lowerBound) else {
                        stream.problem = .mismatch("asked for bytes from \(range.lowerBound), the server answered another range")
                        return false
                    }
                    stream.next = range.lowerBound
                    return true
                },
                onBody: { bytes in
                    let count = min(UInt64(bytes.count), range.upperBound - stream.next)
                    guard count > 0, let base = bytes.baseAddress else { return count == 0 && bytes.isEmpty }
                    var written = 0
                    while written < Int(count) {
                        let result = pwrite(descriptor, base + written, Int(count) - written, off_t(stream.next) + off_t(written))
                        if result < 0 && errno == EINTR { continue }
                        guard result > 0 else {
                            stream.problem = .cache("cannot write the patch's bytes: \(String(cString: strerror(errno)))")
                            return false
                        }
                        written += result
                    }
                    stream.received += UInt64(bytes.count)
                    progress(stream.next..<stream.next + count)
                    stream.next += count
                    return true
                },
                onEnd: { continuation.resume(returning: $0) })
        }
        if let problem = stream.problem { throw problem }
        if stream.status != 0 && stream.status != 206 {
            guard stream.status == 200 else { throw .status(stream.status, attempts: 1) }
            throw .mismatch("the server sent the whole file, not the range (it ignores Range, or the file changed)")
        }
        if let failure { throw failure.oneAttempt(received: Int64(stream.received)) }
        guard stream.next == range.upperBound else {
            throw .transfer(TransferFailure(cause: "the answer ended early", attempts: 1, cuts: 1, received: Int64(stream.received)))
        }
        return stream.received
    }
}
