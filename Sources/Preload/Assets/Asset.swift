/// Something a loader plugin produced: a texture, an atlas, raw data, or a third party's type.
///
/// Assets are immutable values shared between threads; the ``AssetStore`` keeps them until
/// they are unloaded.
public protocol Asset: Sendable {
    /// What kind of asset this is, as reports and the command line name it.
    var kind: AssetKind { get }
    /// The memory the asset holds (decoded pixels, raw bytes), for budgets and reports.
    var byteCount: Int { get }
}

/// The kind of an asset, named the way reports and `preload --json` print it.
public struct AssetKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    /// Decoded image pixels (``Texture``).
    public static let texture: AssetKind = "texture"
    /// Raw bytes delivered as they are (``DataAsset``).
    public static let data: AssetKind = "data"
}

/// Raw bytes delivered without interpretation.
public struct DataAsset: Asset, Hashable {
    /// The bytes, as loaded.
    public var bytes: AssetBytes

    /// An asset holding `bytes`.
    public init(bytes: AssetBytes) { self.bytes = bytes }

    /// Wraps an array without copying it.
    public init(bytes: [UInt8]) { self.bytes = AssetBytes(bytes) }

    public var kind: AssetKind { .data }
    public var byteCount: Int { bytes.count }
}
