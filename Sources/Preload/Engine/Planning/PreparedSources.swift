import Dispatch
import PreloadConcurrency

/// The sources of one batch while it plans (``AssetSource``): the paths a source owns are
/// prepared through it (the caller's all at once, before anything is planned: ``prefetch(_:)``;
/// a dependency's when planning meets it). A path whose source prepared a stand-in (a URL's copy
/// in a cache) is planned as the stand-in (``local(_:)``): the same request with
/// ``AssetRequest/path`` the stand-in and ``AssetRequest/origin`` the path the caller named.
/// What a plugin declares inside a stand-in (an atlas's page) is named against the stand-in's
/// folder; ``originDependencies(_:of:)`` names it against the origin's folder again, so that the
/// same source prepares it from beside the origin.
///
/// Preparation's bytes and cancellation go through one ``SourceSession``: its bytes to the
/// batch's progress, the batch's cancellation to it. Each transfer is handed to the recorder for
/// the report.
final class PreparedSources: Sendable {
    /// The coordinator's sources, in order (the first that owns a path prepares it).
    private let sources: [any AssetSource]
    private let session: SourceSession
    private let recorder: BatchRecorder
    /// Each path prepared so far (without its `#entry`), and what came of it.
    private let prepared = PreloadMutex<[String: Result<PreparedFile, AssetError>]>([:])

    init(sources: [any AssetSource], recorder: BatchRecorder) {
        self.sources = sources
        self.recorder = recorder
        session = SourceSession(onProgress: { [weak recorder] expected, received in
            recorder?.transferred(expected: expected, received: received)
        })
        recorder.cancellation.whenRaised { [session] in session.cancel() }
    }

    /// The index of the source that owns `path`, if a source does (else it is on disk or in a
    /// container, read where it is). Once per request: as cheap as the sources' `owns`.
    private func owner(of path: String) -> Int? {
        for index in sources.indices where sources[index].owns(path) { return index }
        return nil
    }

    /// Whether `source` owns the path of any of `requests`: one pass over them with the source
    /// opened once (no request copied, no existential opened per path).
    private static func ownsAny(of requests: [AssetRequest], _ source: some AssetSource) -> Bool {
        for index in requests.indices where source.owns(requests[index].path) { return true }
        return false
    }

    /// `files` reading through every source of the batch (the refusal of URLs without a
    /// fetcher included): what its folder requests are listed through.
    func serving(_ files: AssetFiles) -> AssetFiles { files.serving(sources) }

    /// Whether a source owns `path`: it is prepared before it is planned.
    func owns(_ path: String) -> Bool { owner(of: path) != nil }

    /// Prepares every path of a source that `requests` name, in one call to each source (which
    /// may prepare them in parallel), before they are planned; a path prepared before is not
    /// prepared again (the files a source's folder listed, after the caller's). Returns whether a
    /// source owns any of them (most batches: none, found in one pass, and planning asks no
    /// source again).
    @discardableResult
    func prefetch(_ requests: [AssetRequest]) -> Bool {
        guard sources.contains(where: { Self.ownsAny(of: requests, $0) }) else { return false }
        var seen = Set(prepared.withLock { $0.keys })
        var files = [[SourceFile]](repeating: [], count: sources.count)
        for request in requests where !request.isFolder {
            guard let source = owner(of: request.path) else { continue }
            let file = Self.split(request.path).file
            guard seen.insert(file).inserted else { continue }
            files[source].append(SourceFile(path: file, expected: request.options[ExpectedContents.self]))
        }
        let groups = files.indices.compactMap { files[$0].isEmpty ? nil : (source: $0, files: files[$0]) }
        DispatchQueue.concurrentPerform(iterations: groups.count) { position in
            prepare(groups[position].files, with: groups[position].source)
        }
        return true
    }

    /// `request` as it is planned: itself for a path no source owns, or one its source reads
    /// where it is; for a prepared stand-in, the same request naming the stand-in (prepared now
    /// if ``prefetch(_:)`` did not), or the error that names the path.
    func local(_ request: AssetRequest) throws(AssetError) -> AssetRequest {
        guard let source = owner(of: request.path) else { return request }
        let (file, entry) = Self.split(request.path)
        var result = prepared.withLock { $0[file] }
        if result == nil {
            prepare([SourceFile(path: file, expected: request.options[ExpectedContents.self])], with: source)
            result = prepared.withLock { $0[file] }
        }
        switch result ?? .failure(Self.unanswered(file, by: sources[source])) {
        case .failure(let error):
            throw error
        case .success(let done):
            if let problem = Self.broken(request.options[ExpectedContents.self], by: done.contents) {
                throw AssetError(path: request.path, category: .corrupt, reason: "downloaded bytes do not match: " + problem)
            }
            guard let standIn = done.standIn else { return request }
            var local = request
            local.path = entry.map { standIn + "#" + $0 } ?? standIn
            local.origin = request.path
            return local
        }
    }

    /// The dependencies a plugin declared for `request`, planned from a stand-in: a name inside
    /// the stand-in's folder is a name inside its origin's folder (prepared from there in turn),
    /// and an entry of the stand-in itself (`STAND-IN#entry`, a pack's) is `ORIGIN#entry`
    /// (planned as the stand-in's entry again); anything else stays as it is.
    /// A name that is neither (an absolute path, a `../` out of the stand-in's folder: a file on
    /// this machine) is refused: a file from a server never reads this machine's files.
    func originDependencies(_ dependencies: [AssetRequest], of request: AssetRequest) throws(AssetError) -> [AssetRequest] {
        let source = request.origin.flatMap(owner(of:))
        var named: [AssetRequest] = []
        for dependency in dependencies {
            let beside = Self.originDependency(dependency, of: request)
            guard source != nil, owner(of: beside.path) == source else {
                throw AssetError(
                    path: request.requestedPath, category: .unsupported,
                    reason: "names \(dependency.path), a file on this machine: a remote file may name only files beside its URL")
            }
            named.append(beside)
        }
        return named
    }

    /// `dependency` as ``originDependencies(_:of:)`` names it: what a plugin asks for at load
    /// time (``LoadContext/dependency(_:)``) is found by the same rule.
    static func originDependency(_ dependency: AssetRequest, of request: AssetRequest) -> AssetRequest {
        guard let origin = request.origin, let localFolder = AssetPath.directory(of: split(request.path).file),
            let originFolder = AssetPath.directory(of: split(origin).file)
        else { return dependency }
        let standIn = split(request.path).file
        var beside = dependency
        if dependency.path.hasPrefix(standIn + "#") {  // an entry of the file itself (a pack's)
            beside.path = split(origin).file + dependency.path.dropFirst(standIn.count)
        } else if dependency.path.hasPrefix(localFolder + "/") && !dependency.path.hasPrefix(standIn) {
            beside.path = originFolder + "/" + dependency.path.dropFirst(localFolder.count + 1)
        } else {
            return dependency
        }
        if beside.name == dependency.path { beside.name = beside.path }
        return beside
    }

    /// Prepares `files` through the source at `index` and keeps what came of each; hands each
    /// transfer to the recorder.
    private func prepare(_ files: [SourceFile], with index: Int) {
        let results = sources[index].prepare(files, session: session)
        for (position, file) in files.enumerated() {
            let result = position < results.count ? results[position] : .failure(Self.unanswered(file.path, by: sources[index]))
            if case .success(let done) = result, let transfer = done.transfer { recorder.fetched(transfer) }
            prepared.withLock { $0[file.path] = result }
        }
    }

    /// The error for `path` when its source's ``AssetSource/prepare(_:session:)`` returned no
    /// result for it (fewer results than files).
    private static func unanswered(_ path: String, by source: any AssetSource) -> AssetError {
        AssetError(path: path, category: .other, reason: "its source (\(type(of: source))) prepared it without saying what came of it")
    }

    /// How `actual` breaks `promise` (another request for the same path may have prepared it
    /// with another promise, or none), in words; `nil` if it keeps it or cannot tell.
    static func broken(_ promise: ExpectedContents, by actual: ExpectedContents) -> String? {
        if let size = promise.size, let real = actual.size, size != real { return "\(real) bytes, \(size) promised" }
        if let sha = promise.sha256, let real = actual.sha256, sha != real { return "SHA-256 \(real), \(sha) promised" }
        return nil
    }

    /// A source's path cut at its `#`: the file the source prepares, and the entry inside it, if
    /// any (a URL's fragment never reaches the server, so `#` keeps its meaning for containers).
    static func split(_ path: String) -> (file: String, entry: String?) {
        guard let hash = path.firstIndex(of: "#") else { return (path, nil) }
        return (String(path[..<hash]), String(path[path.index(after: hash)...]))
    }
}
