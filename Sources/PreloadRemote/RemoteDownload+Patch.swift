import Foundation
import Preload
import PreloadBaked

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A cached baked pack brought up to date by its changes (``PackUpdater``): when the cache holds
/// a version of a pack that may be stale (to revalidate, or not the promised SHA-256), the new
/// pack's header and index are fetched first; a pack the server still has is the cached one
/// (no body moves), a changed one is patched entry by entry into a new file of the cache from
/// the old one (which stays as it is: a game that maps it keeps reading it), and checked against
/// its promise before it enters. Anything else (not a pack, a server that ignores `Range`, a
/// patch that fails) falls back to the whole download, which says why it moved what it moved.
extension RemoteDownload {
    /// Whether `cached` is a baked pack this download may patch instead of fetching it whole.
    func patches(_ cached: RemoteCacheIndex.Entry) -> Bool {
        guard state.withLock({ $0.offset == 0 }), let descriptor = Optional(open(cache.blobPath(cached), O_RDONLY | O_CLOEXEC)), descriptor >= 0
        else { return false }
        defer { close(descriptor) }
        var magic = [UInt8](repeating: 0, count: BakedFormat.magic.count)
        return read(descriptor, &magic, magic.count) == magic.count && magic == BakedFormat.magic
    }

    /// Checks the pack against the cached `old`, and patches it, or finishes from the cache;
    /// falls back to ``attempt()`` when it cannot.
    func patch(from old: RemoteCacheIndex.Entry) {
        let updater = PackUpdater(fetcher: RemoteFetcher(cache: cache, configuration: configuration, transport: transport))
        Task { [self] in
            let oldPath = cache.blobPath(old)
            guard let update = try? await updater.check(file.url, installed: oldPath) else { return attempt() }
            let promised = file.expected
            switch update.kind {
            case .upToDate where promised.sha256 == nil || promised.sha256 == old.sha256:
                state.withLock {
                    $0.attempts.requests += 1
                    $0.networkBytes += Int64(update.checkedBytes)
                }
                finishFromCache(old)
            case .patch, .whole:
                // A patch, or the whole pack the check brought (the server ignores Range): else the ordinary download.
                guard update.kind == .patch || update.bytesToMove == 0 else { return attempt() }
                // A path of its own for this URL: a patch killed midway resumes from its journal the next time.
                let partial = cache.patchPath(for: file.url) ?? cache.newPartialPath().path
                // The bar counts what moves (the check's bytes, then the entries or deltas as
                // they arrive), not the pack's size.
                tellExpected(Int64(update.checkedBytes + update.bytesToMove))
                tellMoved(update.checkedBytes)
                do {
                    let done = try await updater.apply(update, to: partial, progress: { [self] in tellMoved($0) })
                    let descriptor = open(partial, O_RDONLY | O_CLOEXEC)
                    defer { close(descriptor) }
                    guard descriptor >= 0, let (hasher, size) = digest(ofTheRestOf: descriptor) else {
                        throw RemoteFetchError.cache("cannot read \(partial)")
                    }
                    let sha = try hasher.finalize().hexString
                    guard promised.sha256 == nil || promised.sha256 == sha, promised.size == nil || promised.size == size else {
                        throw RemoteFetchError.mismatch("the patched pack is not the promised one")
                    }
                    let entry = RemoteCacheIndex.Entry(
                        sha256: sha, size: size, suffix: suffix, etag: update.etag, lastModified: nil, lastUsed: Date().timeIntervalSince1970)
                    let path = try cache.commit(url: file.url, downloaded: partial, as: entry)
                    state.withLock {
                        $0.attempts.requests += 2 + update.deltaCheckRequests + done.requests
                        $0.networkBytes += Int64(update.checkedBytes + done.networkBytes)
                        $0.cacheBytes = Int64(done.reusedBytes)
                        $0.patchedFrom = done.wasWhole ? nil : old.sha256
                        if done.deltaEntries > 0 {
                            $0.deltas = .init(entries: done.deltaEntries, bytes: Int64(done.deltaBytes), entryBytes: Int64(done.deltaEntryBytes))
                        }
                    }
                    finish(.success(path), contents: ExpectedContents(size: size, sha256: sha))
                } catch {
                    for leftover in [partial, partial + ".patch", partial + ".patch.json"] { unlink(leftover) }
                    barForTheWholeFile()
                    attempt()
                }
            default:
                attempt()
            }
        }
    }

    /// A patch given up for the whole download: what it moved stays counted, settled, and the
    /// bar then counts the whole file from nothing, as a download that did not patch.
    private func barForTheWholeFile() {
        let unsettled = state.withLock { state -> Int64 in
            defer { (state.toldExpected, state.toldReceived) = (0, 0) }
            return state.toldReceived - state.toldExpected
        }
        session.expect(unsettled)
        if let size = file.expected.size { tellExpected(size) }
    }

    /// `bytes` of a patch arrived: told to the session's bar (whose expectation grows if a
    /// refetch moves more than the check said).
    private func tellMoved(_ bytes: UInt64) {
        let more = state.withLock { state -> Int64 in
            state.lastActivity = .now
            state.toldReceived += Int64(bytes)
            let more = max(state.toldReceived - state.toldExpected, 0)
            state.toldExpected += more
            return more
        }
        session.expect(more)
        session.receive(Int64(bytes))
    }
}
