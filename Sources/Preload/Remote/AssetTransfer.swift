/// How one remote file reached the disk: bytes from the network, bytes the cache already had
/// (a revalidated or unchanged file, or the part of a resumed download kept from before), the
/// time it took and the attempts it needed. In ``PreloadReport/transfers`` and per result
/// through ``PreloadReport/transfer(of:)``.
public struct AssetTransfer: Sendable, Hashable, Codable {
    /// The URL, as the request named it.
    public var url: String
    /// Body bytes that came over the network for it in this batch (every attempt, resumed
    /// ranges included).
    public var networkBytes: Int64
    /// Bytes taken from the cache instead: the whole file when it was fresh or the server said
    /// it had not changed (304), or the part of a cut download kept and resumed.
    public var cacheBytes: Int64
    /// From asking for it to having it on disk, checked.
    public var duration: Duration
    /// HTTP requests made for it (1 when nothing went wrong; 0 when the cache answered alone).
    public var attempts: Int

    /// A transfer of `networkBytes` from the network and `cacheBytes` from the cache.
    public init(url: String, networkBytes: Int64 = 0, cacheBytes: Int64, duration: Duration = .zero, attempts: Int = 0) {
        self.url = url
        self.networkBytes = networkBytes
        self.cacheBytes = cacheBytes
        self.duration = duration
        self.attempts = attempts
    }
}
