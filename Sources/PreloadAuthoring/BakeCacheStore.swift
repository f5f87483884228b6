/// The two areas of a bake cache, as the Bazel remote-cache protocol names them: content by
/// its SHA-256 (`cas/<hex>`), and action keys (`ac/<hex>`) each naming the content it made.
public enum BakeCacheArea: String, Sendable, CaseIterable {
    /// Content-addressed storage: an entry's bytes, under the lowercase hex of their SHA-256.
    case cas
    /// The action cache: under the hex of a bake step's key (``BakeCache``), a small record
    /// naming the `cas` digest of the entry it made and the rest of the entry's fields.
    case ac
}

/// Where a bake cache keeps entries: a folder (``LocalBakeCache``), or a server speaking the
/// Bazel remote-cache HTTP protocol (`GET`, `PUT` and `HEAD` of `URL/cas/<hex>` and
/// `URL/ac/<hex>`). ``BakeCache`` reads through one or two of them, verifies what it reads and
/// writes what it made; a store only moves bytes.
///
/// A store that is down throws; ``BakeCache`` warns once and goes on without it, so a store
/// never fails a bake.
public protocol BakeCacheStore: Sendable {
    /// How the output names the store: a folder's path, a URL without credentials.
    var displayName: String { get }

    /// The bytes under `key` in `area`, or `nil` when there are none.
    func read(_ area: BakeCacheArea, _ key: String) async throws -> [UInt8]?

    /// Puts `bytes` under `key` in `area`, replacing what was there.
    func write(_ area: BakeCacheArea, _ key: String, _ bytes: [UInt8]) async throws

    /// Whether `area` has something under `key`.
    func contains(_ area: BakeCacheArea, _ key: String) async throws -> Bool
}

/// Why a bake cache's store could not be read or written: the store and the cause.
public struct BakeCacheError: Error, Sendable, CustomStringConvertible {
    /// The store (``BakeCacheStore/displayName``) and the entry's path in it.
    public var location: String
    /// The system's or the server's reason.
    public var reason: String

    /// The error for `location`, saying `reason`.
    public init(location: String, reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String { "\(location): \(reason)" }
}
