/// What brings remote files (`http://` and `https://` URLs) to local files for a batch: the
/// ``AssetSource`` of URLs, given to a coordinator as ``PreloadCoordinator/Configuration/fetcher``
/// (or among its ``PreloadCoordinator/Configuration/sources``). `PreloadRemote`'s
/// `RemoteFetcher` is the one the package ships (a cache, resume, retries, integrity checks);
/// the core knows only this protocol, so a game that never names a URL links no networking.
///
/// As a source, a fetcher owns every `http://` and `https://` path, and prepares them by
/// fetching: a batch asks it before it plans, for every request whose path is a URL (all of them
/// in one call, which downloads them in parallel); each is then planned and loaded from the
/// local file, its stand-in, exactly as a file on disk would be, by the plugin that claims it. A
/// URL a plugin declares as a dependency (an atlas's page next to a remote atlas) is fetched
/// while planning, on its own. It lists no folders (HTTP has no listing): a folder request for
/// a URL fails by its URL, naming the fetcher (``AssetSource/files(under:)``'s default).
///
/// ```swift
/// import Preload
///
/// /// A fetcher for tests: every URL is a file already on disk.
/// struct MirrorFetcher: RemoteFetching {
///     let folder: String
///     func fetch(_ files: [RemoteFile], session: SourceSession) -> [Result<FetchedFile, AssetError>] {
///         files.map { file in
///             let path = folder + "/" + AssetPath.fileName(of: file.url)
///             return .success(FetchedFile(path: path, transfer: AssetTransfer(url: file.url, cacheBytes: 0)))
///         }
///     }
/// }
/// ```
public protocol RemoteFetching: AssetSource {
    /// Brings each of `files` to a local file and returns, in the same order, the file or the
    /// error that names its URL and cause. Blocks until every file is done or failed; reports
    /// bytes to `session` as they come, and stops at once when the session is cancelled (the
    /// files not done then fail).
    func fetch(_ files: [RemoteFile], session: SourceSession) -> [Result<FetchedFile, AssetError>]
}

/// A fetcher as the source of URLs: it owns `http://` and `https://` paths and prepares them by
/// fetching each to its local copy, which stands in for it.
extension RemoteFetching {
    /// Whether `path` is an `http://` or `https://` URL (``AssetPath/isRemote(_:)``).
    public func owns(_ path: String) -> Bool { AssetPath.isRemote(path) }

    /// Fetches `files` (``fetch(_:session:)``): each URL's local copy stands in for it.
    public func prepare(_ files: [SourceFile], session: SourceSession) -> [Result<PreparedFile, AssetError>] {
        fetch(files.map { RemoteFile(url: $0.path, expected: $0.expected) }, session: session).map { result in
            result.map { PreparedFile(standIn: $0.path, transfer: $0.transfer, contents: $0.contents) }
        }
    }

    /// Refuses: a URL is read from its fetched copy, which a batch plans in its place.
    public func facts(of path: String) throws(AssetError) -> FileFacts {
        throw Self.unprepared(path)
    }

    /// Refuses: a URL is read from its fetched copy, which a batch plans in its place.
    public func read(_ path: String, limit: Int, memory: AssetMemory, isCancelled: () -> Bool, progress: (Double) -> Void) throws -> AssetBytes {
        throw Self.unprepared(path)
    }

    private static func unprepared(_ path: String) -> AssetError {
        AssetError(path: path, category: .download, reason: "is a remote URL: it is read from the copy a batch fetches, not directly")
    }
}

/// One remote file a batch needs: its URL and what it is promised to be.
public struct RemoteFile: Sendable, Hashable {
    /// The `http://` or `https://` URL, as the request named it.
    public var url: String
    /// The size and checksum a manifest or catalog promised for it, to check while it streams.
    public var expected: ExpectedContents

    /// The remote file at `url`, expected to be `expected`.
    public init(url: String, expected: ExpectedContents = ExpectedContents()) {
        self.url = url
        self.expected = expected
    }
}

/// A remote file brought to disk: where it is now, and how it got there.
public struct FetchedFile: Sendable, Hashable {
    /// The local copy (a file in the fetcher's cache), which the batch plans and loads.
    public var path: String
    /// How many bytes came from the network and how many from the cache, and how long it took.
    public var transfer: AssetTransfer
    /// What the file is (its size and SHA-256, where the fetcher knows them): a request for the
    /// same URL that promised other bytes fails, though another request's promise fetched it.
    public var contents: ExpectedContents

    /// The file at `path`, brought there by `transfer`, holding `contents`.
    public init(path: String, transfer: AssetTransfer, contents: ExpectedContents = ExpectedContents()) {
        self.path = path
        self.transfer = transfer
        self.contents = contents
    }
}
