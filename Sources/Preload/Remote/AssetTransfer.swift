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
    /// The byte a `Range` request first went on from, when the download resumed (bytes kept by
    /// an earlier fetch, or by an attempt of this one that was cut), and the server answered
    /// with the rest (206); `nil` when no range was resumed.
    public var resumedAt: Int64?
    /// Why the download started over from byte 0 after it had bytes, if it did (the bytes held
    /// were dropped, never appended to); `nil` when it did not.
    public var restart: Restart?
    /// The SHA-256 of the cached older version the file was patched from, entry by entry (a
    /// baked pack: its changed entries came over the network, ``cacheBytes`` counts those taken
    /// from the older version); `nil` when it was not patched.
    public var patchedFrom: String?
    /// For a patched pack, the entries that came as Zstandard deltas against the cached
    /// version's (published beside the pack with `preload patch`); `nil` when none did.
    public var deltas: Deltas?

    /// Requests after the first: ``attempts`` less one (0 when the cache answered alone).
    public var retries: Int { max(attempts - 1, 0) }

    /// The entries of a patched pack that came as deltas.
    public struct Deltas: Sendable, Hashable, Codable {
        /// How many entries.
        public var entries: Int
        /// The bytes of their deltas (counted in ``AssetTransfer/networkBytes`` too).
        public var bytes: Int64
        /// The bytes of those entries: what fetching them would have moved.
        public var entryBytes: Int64

        /// `entries` entries that came as `bytes` bytes of deltas instead of `entryBytes`.
        public init(entries: Int, bytes: Int64, entryBytes: Int64) {
            self.entries = entries
            self.bytes = bytes
            self.entryBytes = entryBytes
        }
    }

    /// Why a download dropped the bytes it held and started over.
    public enum Restart: String, Sendable, Hashable, Codable {
        /// Asked for the rest with `Range` and `If-Range`, the server sent the whole file with
        /// the same validator: it ignores ranges.
        case ignoresRanges = "the server ignores ranges"
        /// The server sent the whole file with another validator: it changed since the bytes
        /// held were sent.
        case changed = "the file changed on the server"
        /// The server answered with another range than the one asked for, or said the range
        /// cannot be satisfied.
        case otherRange = "the server answered another range"
        /// The response gave no validator to resume against (no ETag, or a weak one, and no
        /// strong `Last-Modified`), and no SHA-256 was promised to check a resumed file by: a
        /// range of a file that changed would make a mixed one, so the bytes held were dropped.
        case noValidator = "the server gives no validator to resume against"
        /// The resumed file did not match its promised SHA-256 (it changed on a server that
        /// gives no validator): dropped, and fetched again from byte 0, once.
        case resumedMismatch = "the resumed file failed its SHA-256 check; fetched again whole"
    }

    /// A transfer of `networkBytes` from the network and `cacheBytes` from the cache (patched from
    /// the cached version whose SHA-256 is `patchedFrom`, if given, with `deltas`).
    public init(
        url: String, networkBytes: Int64 = 0, cacheBytes: Int64, duration: Duration = .zero, attempts: Int = 0, resumedAt: Int64? = nil,
        restart: Restart? = nil, patchedFrom: String? = nil, deltas: Deltas? = nil
    ) {
        self.url = url
        self.networkBytes = networkBytes
        self.cacheBytes = cacheBytes
        self.duration = duration
        self.attempts = attempts
        self.resumedAt = resumedAt
        self.restart = restart
        self.patchedFrom = patchedFrom
        self.deltas = deltas
    }
}
