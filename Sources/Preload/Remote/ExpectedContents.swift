/// What a remote file is promised to be, by a manifest or a catalog: its size and SHA-256. A
/// fetcher checks the bytes against them while they stream: a file that is longer is cut off,
/// one that differs fails by its URL, and neither enters the cache.
///
/// Set on a request's options, it travels with the request:
///
/// ```swift
/// import Preload
///
/// var request = AssetRequest(path: "https://example.com/levels/level3.bake")
/// request.options[ExpectedContents.self] = ExpectedContents(
///     size: 1_048_576, sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
/// ```
public struct ExpectedContents: AssetOptionKey, Sendable, Hashable, Codable {
    /// Nothing promised.
    public static let defaultValue = ExpectedContents()

    /// The file's size in bytes, if known.
    public var size: Int64?
    /// The SHA-256 of its bytes, in lowercase hexadecimal, if known.
    public var sha256: String?

    /// A promise of `size` bytes whose SHA-256 is `sha256` (either may be unknown).
    public init(size: Int64? = nil, sha256: String? = nil) {
        self.size = size
        self.sha256 = sha256?.lowercased()
    }

    /// Whether nothing is promised.
    public var isEmpty: Bool { size == nil && sha256 == nil }
}
