import PreloadAuthoring
import PreloadRemote

/// A Bazel remote cache over HTTP (`BazelRemoteCache`: bazel-remote, nginx with WebDAV, an
/// S3-compatible gateway) as the shared store of `preload bake --bake-cache URL`. It moves bytes
/// only: `BakeCache` verifies what it reads, and warns once when the server fails.
struct RemoteBakeCacheStore: BakeCacheStore {
    let remote: BazelRemoteCache

    /// The URL without its credentials.
    var displayName: String { remote.displayURL }

    func read(_ area: BakeCacheArea, _ key: String) async throws -> [UInt8]? { try await remote.read(Self.area(area), key) }

    func write(_ area: BakeCacheArea, _ key: String, _ bytes: [UInt8]) async throws { try await remote.write(Self.area(area), key, bytes) }

    func contains(_ area: BakeCacheArea, _ key: String) async throws -> Bool { try await remote.contains(Self.area(area), key) }

    private static func area(_ area: BakeCacheArea) -> BazelRemoteCache.Area {
        switch area {
        case .cas: .cas
        case .ac: .ac
        }
    }
}
