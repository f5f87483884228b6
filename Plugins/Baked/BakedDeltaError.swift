import Preload

/// Why the deltas between two versions of a baked pack (``BakedPackDelta``) could not be
/// written or used. A delta that cannot be used costs its entry a fetch of its own bytes, never a
/// wrong entry.
public enum BakedDeltaError: AssetFailure, Equatable {
    /// A pack given to ``BakedPackDeltaWriter`` cannot be read as a baked pack (the path, and
    /// why: not a pack, cut, damaged).
    case pack(String, BakedPackError)
    /// A pack given to ``BakedPackDeltaWriter`` cannot be opened (the path, and why).
    case cannotRead(String)
    /// The delta file, or the folder it goes in, cannot be written (the path, and why).
    case cannotWrite(String)
    /// The bytes are not a delta file this library reads.
    case notADelta(String)
    /// A checksum of the delta file does not match: its bytes changed after it was written.
    case damaged(String)
    /// The old entry a delta is applied against is not the one it was made against.
    case wrongReference(entry: String)
    /// A delta does not give its entry: zstd refused it, or the bytes rebuilt fail the entry's
    /// length or CRC-32.
    case entryDamaged(entry: String, detail: String)
    /// libzstd is missing (or too old to compress against a reference).
    case library(MissingSystemLibrary)

    public var category: AssetError.Category {
        switch self {
        case .pack(_, let error): error.category
        case .cannotWrite: .other
        case .cannotRead: .unreadable
        case .notADelta: .unsupported
        case .damaged, .wrongReference, .entryDamaged: .corrupt
        case .library: .libraryMissing
        }
    }

    public var description: String {
        switch self {
        case .pack(let path, let error): "\(path): \(error)"
        case .cannotWrite(let detail): "cannot write the deltas: \(detail)"
        case .cannotRead(let detail): detail
        case .notADelta(let detail): "not a baked pack's delta file: \(detail)"
        case .damaged(let detail): "the delta file is damaged: \(detail)"
        case .wrongReference(let entry): "entry '\(entry)': the old entry is not the one its delta was made against"
        case .entryDamaged(let entry, let detail): "entry '\(entry)': its delta does not give it: \(detail)"
        case .library(let error): "\(error)"
        }
    }
}
