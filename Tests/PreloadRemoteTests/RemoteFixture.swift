import Foundation
import Preload
import PreloadTestSupport

@testable import PreloadRemote

/// A folder of files to serve, a cache, and fetchers with short waits: what the remote tests share.
/// The server is the run's shared fault server (`SharedServers`); the fixture's files are in a
/// folder of their own below its root, its URLs name that folder, and its ``stats()`` lists only
/// the requests for it.
final class RemoteFixture: Sendable {
    let served: TemporaryDirectory
    let cacheFolder: TemporaryDirectory
    let server: FaultServer

    private init(served: TemporaryDirectory, cacheFolder: TemporaryDirectory, server: FaultServer) {
        self.served = served
        self.cacheFolder = cacheFolder
        self.server = server
    }

    /// A fixture on the shared server: on a thread of its own, since the first one waits for the
    /// server's start (a blocked test thread would hold one of the few that run every suite's
    /// async work).
    static func make() async throws -> RemoteFixture {
        try await offThePool {
            let served = try TemporaryDirectory("preload-remote-served")
            let parent = URL(fileURLWithPath: served.path).deletingLastPathComponent().standardizedFileURL.path
            guard parent == SharedServers.root else { throw LoopbackServerError("\(served.path) is not below \(SharedServers.root)") }
            return RemoteFixture(
                served: served, cacheFolder: try TemporaryDirectory("preload-remote-cache"), server: try SharedServers.fault())
        }
    }

    deinit {
        served.remove()
        cacheFolder.remove()
    }

    /// `count` bytes that differ from one file to the next (`seed`).
    static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// Serves `bytes` as `name`; returns their promise (size and SHA-256).
    @discardableResult
    func serve(_ name: String, _ bytes: [UInt8]) throws -> ExpectedContents {
        _ = try served.write(name, bytes)
        return ExpectedContents(size: Int64(bytes.count), sha256: try SHA256.hash(data: bytes).hexString)
    }

    /// Sets the modification time of the served file `name` to `seconds` ago (whole seconds, as
    /// `Last-Modified` gives it: older than a response's `Date`, a strong validator); returns it.
    @discardableResult
    func age(_ name: String, by seconds: Double = 3600) throws -> Int64 {
        let modified = Date().timeIntervalSince1970.rounded(.down) - seconds
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: modified)], ofItemAtPath: served.path + "/" + name)
        return Int64(modified)
    }

    /// The name of the fixture's folder below the servers' root: the path component its URLs
    /// carry after the route.
    var folderName: String { URL(fileURLWithPath: served.path).lastPathComponent }

    /// The fault server's URL for `route` (`plain/hero.png`, `drop/big.bin?after=1000`,
    /// `chain/3/far.bin`) with the fixture's folder after the route (`plain/FOLDER/hero.png`).
    func url(_ route: String) -> String { server.baseURL.absoluteString + "/" + Self.route(route, in: folderName) }

    /// `route` with `folder` put before the file's path.
    static func route(_ route: String, in folder: String) -> String {
        guard let slash = route.firstIndex(of: "/") else { return route }  // no file (`redirect?to=`)
        let kind = route[..<slash], rest = route[route.index(after: slash)...]
        if kind == "chain", let next = rest.firstIndex(of: "/") {  // chain/N/FILE
            return "chain/\(rest[..<next])/\(folder)/\(rest[rest.index(after: next)...])"
        }
        return "\(kind)/\(folder)/\(rest)"
    }

    /// The requests the server answered for this fixture's files, oldest first.
    func stats() throws -> [FaultServer.Request] {
        try server.stats().filter { $0.path.contains("/\(folderName)/") }
    }

    /// A cache in the fixture's folder.
    func cache(limit: Int64 = 1 << 30) throws -> RemoteCache { try RemoteCache(folder: cacheFolder.path, limit: limit) }

    /// A fetcher over the fixture's cache whose retries wait milliseconds, not seconds.
    func fetcher(
        attempts: Int = 5, maxRequests: Int = 1000, stall: Duration = .seconds(5), redirects: Int = 5, revalidates: Bool = true,
        limit: Int64 = 1 << 30, downloads: Int = 4
    ) throws -> RemoteFetcher {
        RemoteFetcher(
            cache: try cache(limit: limit),
            configuration: .init(
                maxConcurrentDownloads: downloads,
                retries: RetryPolicy(
                    attempts: attempts, maxRequests: maxRequests, initialDelay: .milliseconds(5), maxDelay: .milliseconds(50), stallTimeout: stall),
                maxRedirects: redirects, revalidates: revalidates))
    }

    /// The files in the cache's `partial/` folder, and whether each blob holds the bytes its name says.
    func cacheContents() throws -> (partials: [String], blobs: [String], blobsIntact: Bool) {
        let files = FileManager.default
        let partials = try files.contentsOfDirectory(atPath: cacheFolder.path + "/partial").sorted()
        let blobs = try files.contentsOfDirectory(atPath: cacheFolder.path + "/blobs").sorted()
        let intact = blobs.allSatisfy { name in
            guard let data = files.contents(atPath: cacheFolder.path + "/blobs/" + name) else { return false }
            return (try? SHA256.hash(data: data)).map { name.hasPrefix($0.hexString) } ?? false
        }
        return (partials, blobs, intact)
    }
}

/// The bytes of a fetched file's local copy.
func bytesOnDisk(_ file: FetchedFile) -> [UInt8] {
    Array(FileManager.default.contents(atPath: file.path) ?? Data())
}

/// The one file a fetch of one file gave, or its error.
func only(_ results: [Result<FetchedFile, AssetError>]) throws -> FetchedFile {
    precondition(results.count == 1)
    return try results[0].get()
}

/// `body`, run on a thread of its own (it blocks: a server's start, a process's end), its result
/// awaited.
func offThePool<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Swift.Result { try body() }) }
    }
}
