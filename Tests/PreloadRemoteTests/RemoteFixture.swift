import Foundation
import Preload
import PreloadTestSupport

@testable import PreloadRemote

/// A folder of files to serve, a cache, and fetchers with short waits: what the remote tests share.
final class RemoteFixture: Sendable {
    let served: TemporaryDirectory
    let cacheFolder: TemporaryDirectory
    let server: FaultServer

    private init(served: TemporaryDirectory, cacheFolder: TemporaryDirectory, server: FaultServer) {
        self.served = served
        self.cacheFolder = cacheFolder
        self.server = server
    }

    /// A fixture with its server started: on a thread of its own, since starting waits for the
    /// server's first line (a blocked test thread would hold one of the few that run every
    /// suite's async work).
    static func make() async throws -> RemoteFixture {
        try await offThePool {
            let served = try TemporaryDirectory("preload-remote-served")
            return RemoteFixture(
                served: served, cacheFolder: try TemporaryDirectory("preload-remote-cache"), server: try FaultServer.start(root: served.path))
        }
    }

    deinit {
        server.stop()
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

    /// The fault server's URL for `route` (`plain/hero.png`, `drop/big.bin?after=1000`).
    func url(_ route: String) -> String { server.baseURL.absoluteString + "/" + route }

    /// A cache in the fixture's folder.
    func cache(limit: Int64 = 1 << 30) throws -> RemoteCache { try RemoteCache(folder: cacheFolder.path, limit: limit) }

    /// A fetcher over the fixture's cache whose retries wait milliseconds, not seconds.
    func fetcher(
        attempts: Int = 5, stall: Duration = .seconds(5), redirects: Int = 5, revalidates: Bool = true, limit: Int64 = 1 << 30,
        downloads: Int = 4
    ) throws -> RemoteFetcher {
        RemoteFetcher(
            cache: try cache(limit: limit),
            configuration: .init(
                maxConcurrentDownloads: downloads,
                retries: RetryPolicy(attempts: attempts, initialDelay: .milliseconds(5), maxDelay: .milliseconds(50), stallTimeout: stall),
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
