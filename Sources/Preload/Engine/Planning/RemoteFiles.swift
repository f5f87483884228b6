import PreloadConcurrency

/// The remote files of one batch while it plans: requests whose path is an `http://` or
/// `https://` URL are fetched through the coordinator's ``RemoteFetching`` (the caller's all at
/// once, before anything is planned: ``prefetch(_:)``; a dependency's when planning meets it)
/// and planned as their local copies (``local(_:)``): the same request with ``AssetRequest/path``
/// the local file and ``AssetRequest/remoteURL`` the URL. What a plugin declares inside such a
/// file (an atlas's page) is named against the local copy's folder; ``remoteDependencies(_:of:)``
/// names it against the URL's folder again, so it is fetched from beside the URL.
///
/// The fetches' bytes and cancellation go through one ``RemoteFetchSession``: its bytes to the
/// batch's progress, the batch's cancellation to it. Each transfer is handed to the recorder for
/// the report.
final class RemoteFiles: Sendable {
    private let fetcher: (any RemoteFetching)?
    private let session: RemoteFetchSession
    private let recorder: BatchRecorder
    /// Each URL fetched so far (without its `#entry`), and what came of it.
    private let fetched = PreloadMutex<[String: Result<FetchedFile, AssetError>]>([:])

    init(fetcher: (any RemoteFetching)?, recorder: BatchRecorder) {
        self.fetcher = fetcher
        self.recorder = recorder
        session = RemoteFetchSession(onProgress: { [weak recorder] expected, received in
            recorder?.transferred(expected: expected, received: received)
        })
        recorder.cancellation.whenRaised { [session] in session.cancel() }
    }

    /// Fetches every remote file `requests` name, in one call to the fetcher (which downloads
    /// them in parallel), before they are planned.
    func prefetch(_ requests: [AssetRequest]) {
        guard requests.contains(where: { AssetPath.isRemote($0.path) }) else { return }  // most batches: one pass, no copies
        var seen = Set<String>()
        var files: [RemoteFile] = []
        for request in requests where !request.isFolder && AssetPath.isRemote(request.path) {
            let url = Self.split(request.path).url
            guard seen.insert(url).inserted else { continue }
            files.append(RemoteFile(url: url, expected: request.options[ExpectedContents.self]))
        }
        guard !files.isEmpty else { return }
        fetch(files)
    }

    /// `request` as it is planned: itself for a local file; for a URL, the same request naming
    /// the fetched local copy (fetched now if ``prefetch(_:)`` did not), or the error that
    /// names the URL.
    func local(_ request: AssetRequest) throws(AssetError) -> AssetRequest {
        guard AssetPath.isRemote(request.path) else { return request }
        let (url, entry) = Self.split(request.path)
        var result = fetched.withLock { $0[url] }
        if result == nil {
            fetch([RemoteFile(url: url, expected: request.options[ExpectedContents.self])])
            result = fetched.withLock { $0[url] }
        }
        switch result! {
        case .failure(let error):
            throw error
        case .success(let file):
            if let problem = Self.broken(request.options[ExpectedContents.self], by: file.contents) {
                throw AssetError(path: request.path, category: .corrupt, reason: "downloaded bytes do not match: " + problem)
            }
            var local = request
            local.path = entry.map { file.path + "#" + $0 } ?? file.path
            local.remoteURL = request.path
            return local
        }
    }

    /// The dependencies a plugin declared for `request`, a fetched file: a name inside its
    /// local copy's folder is a name inside its URL's folder (fetched from there in turn), and
    /// an entry of the file itself (`COPY#entry`, a pack's) is `URL#entry` (planned as the
    /// copy's entry again); anything else stays as it is.
    /// A name that is neither (an absolute path, a `../` out of the copy's folder: a file on
    /// this machine) is refused: a file from a server never reads this machine's files.
    func remoteDependencies(_ dependencies: [AssetRequest], of request: AssetRequest) throws(AssetError) -> [AssetRequest] {
        var named: [AssetRequest] = []
        for dependency in dependencies {
            let remote = Self.remoteDependency(dependency, of: request)
            guard AssetPath.isRemote(remote.path) else {
                throw AssetError(
                    path: request.remoteURL ?? request.path, category: .unsupported,
                    reason: "names \(dependency.path), a file on this machine: a remote file may name only files beside its URL")
            }
            named.append(remote)
        }
        return named
    }

    /// `dependency` as ``remoteDependencies(_:of:)`` names it: what a plugin asks for at load
    /// time (``LoadContext/dependency(_:)``) is found by the same rule.
    static func remoteDependency(_ dependency: AssetRequest, of request: AssetRequest) -> AssetRequest {
        guard let url = request.remoteURL, let localFolder = AssetPath.directory(of: split(request.path).url),
            let remoteFolder = AssetPath.directory(of: split(url).url)
        else { return dependency }
        let copy = split(request.path).url
        var remote = dependency
        if dependency.path.hasPrefix(copy + "#") {  // an entry of the file itself (a pack's)
            remote.path = split(url).url + dependency.path.dropFirst(copy.count)
        } else if dependency.path.hasPrefix(localFolder + "/") && !dependency.path.hasPrefix(copy) {
            remote.path = remoteFolder + "/" + dependency.path.dropFirst(localFolder.count + 1)
        } else {
            return dependency
        }
        if remote.name == dependency.path { remote.name = remote.path }
        return remote
    }

    /// Fetches `files` and keeps what came of each; hands each transfer to the recorder.
    private func fetch(_ files: [RemoteFile]) {
        let results: [Result<FetchedFile, AssetError>]
        if let fetcher {
            results = fetcher.fetch(files, session: session)
        } else {
            results = files.map { file in
                .failure(
                    AssetError(
                        path: file.url, category: .download,
                        reason: "is a remote URL, and the coordinator has no fetcher (give it PreloadRemote's RemoteFetcher: "
                            + "PreloadCoordinator.Configuration(fetcher:))"))
            }
        }
        for (file, result) in zip(files, results) {
            if case .success(let fetched) = result { recorder.fetched(fetched.transfer) }
            self.fetched.withLock { $0[file.url] = result }
        }
    }

    /// How `actual` breaks `promise` (another request for the same URL may have fetched it
    /// with another promise, or none), in words; `nil` if it keeps it or cannot tell.
    static func broken(_ promise: ExpectedContents, by actual: ExpectedContents) -> String? {
        if let size = promise.size, let real = actual.size, size != real { return "\(real) bytes, \(size) promised" }
        if let sha = promise.sha256, let real = actual.sha256, sha != real { return "SHA-256 \(real), \(sha) promised" }
        return nil
    }

    /// A remote path cut at its `#`: the URL of the file, and the entry inside it, if any (a
    /// URL's fragment never reaches the server, so `#` keeps its meaning for containers).
    static func split(_ path: String) -> (url: String, entry: String?) {
        guard let hash = path.firstIndex(of: "#") else { return (path, nil) }
        return (String(path[..<hash]), String(path[path.index(after: hash)...]))
    }
}
