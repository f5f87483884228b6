import Preload

/// Why a baked pack, or one of its entries, cannot be read. Reported as an `AssetError` naming
/// the pack (or the entry, `level.bake#hero.png`) with this as its reason.
public enum BakedPackError: AssetFailure, Equatable {
    /// The file does not start with ``BakedFormat/magic``.
    case notABakedPack
    /// Written by a version of the format this library does not read (a version the header's
    /// checksum vouches for; a version byte that does not match it is ``damaged(_:)``).
    case unsupportedVersion(UInt32)
    /// The file ends before the header says it does: cut while copying, or still being written.
    case truncated(String)
    /// A checksum does not match: the bytes changed after baking.
    case damaged(String)
    /// The index contradicts itself or the file (a range outside the file, overlapping entries,
    /// an unknown kind, ...).
    case malformed(String)
    /// An entry's name would leave the pack (an absolute path, a `..` component).
    case nameEscapes(String)
    /// The pack has no entry of that name.
    case noSuchEntry(String)
    /// An entry of a kind no registered plugin reads (no `BakingPlugin` lists a type of that
    /// kind name): that entry fails alone.
    case unreadableKind(entry: String, kind: String)

    public var category: AssetError.Category {
        switch self {
        case .notABakedPack, .unsupportedVersion, .unreadableKind: .unsupported
        case .truncated: .truncated
        case .damaged, .malformed, .nameEscapes: .corrupt
        case .noSuchEntry: .fileNotFound
        }
    }

    public var description: String {
        switch self {
        case .notABakedPack: "not a baked pack (it does not start with the baked-pack signature)"
        case .unsupportedVersion(let version):
            "baked pack version \(version); this Preload reads versions \(BakedFormat.readableVersions.lowerBound) to \(BakedFormat.readableVersions.upperBound) (bake it again with this Preload's `preload bake`)"
        case .truncated(let detail): "truncated baked pack: \(detail)"
        case .damaged(let detail): "damaged baked pack: \(detail)"
        case .malformed(let detail): "malformed baked pack: \(detail)"
        case .nameEscapes(let name): "malformed baked pack: the entry name \(name) would leave the pack"
        case .noSuchEntry(let name): "the baked pack has no entry '\(name)'"
        case .unreadableKind(let entry, let kind): "entry '\(entry)' is a '\(kind)' entry: no registered plugin reads it"
        }
    }
}
