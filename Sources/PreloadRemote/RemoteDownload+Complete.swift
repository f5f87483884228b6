import Foundation
import Preload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The end of a download whose body came whole: the check against the promise, and the move
/// into the cache (or the cache's copy, when it answered alone).
extension RemoteDownload {
    /// The body ended whole: checked against the promise, then moved into the cache. A resumed
    /// file that fails the check is fetched again from byte 0, once: never delivered mixed.
    func complete() {
        enum Checked {
            case whole(String, RemoteCacheIndex.Entry), fetchAgain(dropped: Int64), failed(RemoteFetchError)
        }
        let checked = state.withLock { state -> Checked in
            let digest: String
            do { digest = try state.hasher.finalize().hexString } catch { return .failed(.library("\(error)")) }
            var mismatch: String?
            if let size = file.expected.size, size != state.offset {
                mismatch = "\(state.offset) bytes, \(size) promised"
            } else if let sha = file.expected.sha256, sha != digest {
                mismatch = "SHA-256 \(digest), \(sha) promised"
            }
            if mismatch != nil, state.attempts.resumedAt != nil, !state.refetchedWhole, state.descriptor >= 0 {
                state.refetchedWhole = true
                state.attempts.restarted(.resumedMismatch)
                let dropped = state.offset
                state.truncate()
                state.validators = ResumeValidators()
                return .fetchAgain(dropped: dropped)
            }
            if state.descriptor >= 0 {
                close(state.descriptor)
                state.descriptor = -1
            }
            if let mismatch { return .failed(.mismatch(mismatch)) }
            guard let name = state.partialName else { return .failed(.cache("no temporary file")) }
            state.partialName = nil
            let entry = RemoteCacheIndex.Entry(
                sha256: digest, size: state.offset, suffix: suffix, etag: state.validators.etag, lastModified: state.validators.lastModified,
                lastUsed: Date().timeIntervalSince1970)
            return .whole(cache.partialPath(name), entry)
        }
        switch checked {
        case .fetchAgain(let dropped):
            session.expect(dropped)  // those bytes come again
            timerQueue.async { [self] in
                if session.isCancelled { return finish(.failure(.cancelled)) }
                attempt()
            }
        case .failed(let error):
            finish(.failure(error), discardPartial: true)
        case .whole(let partial, let entry):
            do {
                let path = try cache.commit(url: file.url, downloaded: partial, as: entry)
                finish(.success(path), contents: ExpectedContents(size: entry.size, sha256: entry.sha256))
            } catch {
                finish(.failure(.cache("\(error)")))
            }
        }
    }

    func finishFromCache(_ entry: RemoteCacheIndex.Entry) {
        state.withLock { $0.cacheBytes = entry.size }
        tellExpected(entry.size)
        finish(.success(cache.blobPath(entry)), contents: ExpectedContents(size: entry.size, sha256: entry.sha256))
    }
}
