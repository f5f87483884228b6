import Dispatch
import Foundation
import Preload
import PreloadConcurrency

/// Brings remote files into a ``RemoteCache`` for a coordinator, and keeps them up to date: the
/// source of URLs (an `AssetSource`, through `RemoteFetching`). Give it to
/// `PreloadCoordinator.Configuration.fetcher` (or among its `sources`) and requests may name
/// `http://` and `https://` URLs; each file downloads into the cache, where its copy stands in
/// for it, and then loads through the plugin that claims it, exactly as a local file would (a
/// baked pack is then mapped from the cache).
///
/// - **Resume**: a download cut midway continues with an HTTP `Range` request and `If-Range`
///   (a strong ETag, else a strong `Last-Modified`; never a weak ETag), or `Range` alone when the
///   file's SHA-256 is promised (a resumed file that fails it is fetched again whole, once); it
///   starts over cleanly when the server sends the whole file instead, or gives nothing to resume
///   against (the transfer's `resumedAt` and `restart` say which). A cancelled fetch keeps what
///   arrived.
/// - **Retries** (``RetryPolicy``): exponential backoff with jitter, a bounded count of attempts
///   in a row that bring no new byte (a download that progresses goes on), a stall timeout; a
///   4xx other than 408 and 429 is final and named with its status; giving up says how far it
///   got (``TransferFailure``).
/// - **Integrity**: a request's `ExpectedContents` (from a manifest or a ``RemoteCatalog``)
///   is checked while the bytes stream: over the size is cut off, a different size or SHA-256
///   fails by name, and neither enters the cache.
/// - **Cache**: content-addressed, revalidated with `If-None-Match` (a 304 costs no body), a
///   file whose promised SHA-256 is cached costs no request at all; bounded, least recently
///   used first.
/// - **Limits**: ``Configuration/maxConcurrentDownloads`` at once, http and https only (a
///   redirect elsewhere is refused), ``Configuration/maxRedirects``, TLS verified.
///
/// ```swift
/// import Preload
/// import PreloadPNG
/// import PreloadRemote
///
/// let fetcher = RemoteFetcher(cache: try RemoteCache(folder: RemoteCache.defaultFolder))
/// let coordinator = try PreloadCoordinator(
///     plugins: [PNGLoader()], configuration: PreloadCoordinator.Configuration(fetcher: fetcher))
/// let report = try await coordinator.preload(["https://example.com/art/hero.png"])
/// for transfer in report.transfers { print(transfer.url, transfer.networkBytes, transfer.cacheBytes) }
/// ```
public final class RemoteFetcher: RemoteFetching {
    /// How the fetcher downloads.
    public struct Configuration: Sendable {
        /// Downloads at once (4 by default: on loopback two already fill a core with hashing
        /// and writing; more help with slow, distant servers).
        public var maxConcurrentDownloads: Int
        /// When to try a failed download again.
        public var retries: RetryPolicy
        /// Redirects followed for one request (5 by default); more fail.
        public var maxRedirects: Int
        /// Whether a cached file with no promised SHA-256 is revalidated with the server
        /// (`If-None-Match`) before it is used (the default), or used as it is.
        public var revalidates: Bool
        /// The `User-Agent` header.
        public var userAgent: String

        /// The defaults described on each property.
        public init(
            maxConcurrentDownloads: Int = 4, retries: RetryPolicy = RetryPolicy(), maxRedirects: Int = 5, revalidates: Bool = true,
            userAgent: String = "Preload"
        ) {
            self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
            self.retries = retries
            self.maxRedirects = max(0, maxRedirects)
            self.revalidates = revalidates
            self.userAgent = userAgent
        }
    }

    /// Where files go.
    public let cache: RemoteCache
    /// How it downloads.
    public let configuration: Configuration
    let transport: any HTTPTransport

    /// A fetcher into `cache`.
    public convenience init(cache: RemoteCache, configuration: Configuration = Configuration()) {
        self.init(cache: cache, configuration: configuration, transport: CurlTransport(configuration: configuration))
    }

    init(cache: RemoteCache, configuration: Configuration, transport: any HTTPTransport) {
        self.cache = cache
        self.configuration = configuration
        self.transport = transport
    }

    /// Brings each of `files` into the cache, ``Configuration/maxConcurrentDownloads`` at a
    /// time, and returns each one's local file (or its error, naming its URL) in order. Blocks
    /// until all are done; a coordinator calls it while it plans.
    public func fetch(_ files: [RemoteFile], session: SourceSession) -> [Result<FetchedFile, AssetError>] {
        let done = DispatchSemaphore(value: 0)
        let results = Locked([Result<FetchedFile, AssetError>?](repeating: nil, count: files.count))
        start(files, session: session) { index, result in
            let finished = results.withLock { results -> Bool in
                results[index] = result
                return !results.contains { $0 == nil }
            }
            if finished { done.signal() }
        }
        if !files.isEmpty { done.wait() }
        cache.flush()
        return results.withLock { $0.map { $0! } }
    }

    /// ``fetch(_:session:)`` without blocking a thread.
    public func fetch(_ files: [RemoteFile], session: SourceSession = SourceSession()) async -> [Result<FetchedFile, AssetError>] {
        guard !files.isEmpty else { return [] }
        let results = Locked([Result<FetchedFile, AssetError>?](repeating: nil, count: files.count))
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                start(files, session: session) { index, result in
                    let finished = results.withLock { results -> Bool in
                        results[index] = result
                        return !results.contains { $0 == nil }
                    }
                    if finished { continuation.resume() }
                }
            }
        } onCancel: {
            session.cancel()
        }
        cache.flush()
        return results.withLock { $0.map { $0! } }
    }

    /// Brings the files of `groups` of `catalog` up to date (every file when `groups` is
    /// empty): only those whose bytes the cache does not hold transfer.
    public func update(
        _ catalog: RemoteCatalog, groups: [String] = [], session: SourceSession = SourceSession()
    ) async
        -> [Result<FetchedFile, AssetError>]
    {
        let files = catalog.files(groups: groups).map { RemoteFile(url: catalog.url(of: $0), expected: $0.expected) }
        return await fetch(files, session: session)
    }

    /// Starts the downloads, at most ``Configuration/maxConcurrentDownloads`` at a time (one
    /// per URL: a URL named twice is fetched once); `report` gets each index's result once.
    private func start(
        _ files: [RemoteFile], session: SourceSession, report: @escaping @Sendable (Int, Result<FetchedFile, AssetError>) -> Void
    ) {
        var positions: [String: [Int]] = [:]
        var distinct: [RemoteFile] = []
        for (index, file) in files.enumerated() {
            if positions[file.url] == nil { distinct.append(file) }
            positions[file.url, default: []].append(index)
        }
        let pending = Locked(distinct[...])
        let positionsOfURL = positions
        @Sendable func next() {
            guard let file = pending.withLock({ $0.popFirst() }) else { return }
            let download = RemoteDownload(
                file: file, cache: cache, transport: transport, configuration: configuration, session: session
            ) { result in
                for index in positionsOfURL[file.url] ?? [] { report(index, result) }
                DispatchQueue.global().async { next() }  // not deeper: a cached file finishes at once
            }
            download.start()
        }
        for _ in 0..<min(configuration.maxConcurrentDownloads, distinct.count) { next() }
    }
}
