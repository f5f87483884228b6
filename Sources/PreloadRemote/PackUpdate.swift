import Preload
import PreloadBaked

/// What ``PackUpdater/check(_:installed:)`` found: whether the pack at a URL is newer than the
/// installed one, and what updating would move. Give it to ``PackUpdater/apply(_:to:verify:progress:)``.
public struct PackUpdate: Sendable {
    /// What an update takes.
    public enum Kind: Sendable, Equatable {
        /// The server's pack is the installed one (the same header: the same index, checksum
        /// and length): nothing to do.
        case upToDate
        /// Entry by entry: the changed and new entries are fetched (``PackUpdate/diff``), the
        /// rest is taken from the installed pack.
        case patch
        /// The whole pack moves, for the reason given (the server ignores `Range`, or there is
        /// no installed pack to patch, or it is not a readable baked pack).
        case whole(String)
    }

    /// The pack's URL.
    public let url: String
    /// The installed pack's path (it may not exist).
    public let installed: String
    /// What the update takes.
    public let kind: Kind
    /// For ``Kind/patch``, the entries taken from the installed pack and those fetched.
    public let diff: BakedPackDiff?
    /// The server's pack's length.
    public let packLength: UInt64
    /// Bytes the check moved (the new pack's header and index, or the whole file when the
    /// server ignored `Range`; and the outline of the deltas published for the installed
    /// version, if any).
    public internal(set) var checkedBytes: UInt64
    /// The server's ETag for the pack, if it gave one (the update's ranges are asked with
    /// `If-Range`, so that a pack changed meanwhile is never mixed).
    public let etag: String?
    let header: [UInt8]
    let index: [UInt8]
    /// The file holding the whole pack, when the server sent it in answer to the check
    /// (`INSTALLED.new`, beside the installed pack).
    let wholeFile: String?
    /// For ``Kind/patch``, the changed entries that come as Zstandard deltas against the
    /// installed pack's entries (published with `preload patch` beside the pack), where a delta
    /// is smaller than its entry; `nil` when none is published for the installed version, or
    /// none is smaller.
    public internal(set) var deltas: PackDeltas? = nil
    /// Why deltas published for the installed version are not used (the delta file is damaged,
    /// or made for other versions): the entries come whole, as without deltas.
    public internal(set) var deltaWarning: String? = nil
    /// Requests the check made for the deltas (a missing delta file's too).
    var deltaCheckRequests = 0

    /// Bytes the update still moves: the entries to fetch (merged ranges) for a patch, the pack
    /// for a whole download not yet made, 0 otherwise.
    public var bytesToMove: UInt64 {
        switch kind {
        case .upToDate: 0
        case .patch: deltas?.bytesToMove ?? diff?.requestedBytes ?? 0
        case .whole: wholeFile == nil ? packLength : 0
        }
    }

    /// Bytes of the new pack that need not move: those taken from the installed pack.
    public var bytesSaved: UInt64 {
        switch kind {
        case .upToDate: packLength
        case .patch: packLength - min(packLength, checkedBytes + bytesToMove)
        case .whole: 0
        }
    }
}

/// What ``PackUpdater/apply(_:to:verify:progress:)`` did.
public struct PackUpdateResult: Sendable, Equatable {
    /// Where the new pack is.
    public let path: String
    /// Where the pack it replaced is kept, for ``PackUpdater/rollBack(_:)`` (`nil` when
    /// nothing was replaced).
    public let previous: String?
    /// Body bytes moved over the network by the apply (the check's bytes not included; the
    /// deltas' included).
    public internal(set) var networkBytes: UInt64
    /// HTTP requests the apply made.
    public internal(set) var requests: Int
    /// Bytes of the new pack taken from the installed one.
    public let reusedBytes: UInt64
    /// Bytes an earlier, cut apply had fetched and this one did not fetch again.
    public let resumedBytes: UInt64
    /// Whether the whole pack moved (no patch).
    public let wasWhole: Bool
    /// Entries that came as deltas, rebuilt against the installed pack's entries.
    public internal(set) var deltaEntries = 0
    /// Bytes fetched for those deltas (counted in ``networkBytes`` too).
    public internal(set) var deltaBytes: UInt64 = 0
    /// The bytes of the entries that came as deltas: what fetching them would have moved.
    public internal(set) var deltaEntryBytes: UInt64 = 0
    /// What went wrong with the deltas and was worked around (a delta that does not give its
    /// entry: the entry was fetched instead).
    public internal(set) var warnings: [String] = []
}

/// Why a pack could not be checked or updated. The installed pack is left as it was (or, for
/// ``failedItsCheck(_:)``, put back).
public enum PackUpdateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The network (the server's answer, a cut transfer, the If-Range validator changed).
    case fetch(RemoteFetchError)
    /// The patch's bytes failed a check (an entry's CRC-32, the index, the length).
    case patch(BakedPatchError)
    /// The server's file is not a baked pack.
    case notAPack(String)
    /// The new pack was written but the caller's check refused it: the previous pack is back.
    case failedItsCheck(String)
    /// Nothing to roll back to, or the previous pack cannot be put back.
    case cannotRollBack(String)

    public var description: String {
        switch self {
        case .fetch(let error): "\(error)"
        case .patch(let error): "\(error)"
        case .notAPack(let detail): "not a baked pack: \(detail)"
        case .failedItsCheck(let detail): "the new pack failed its check, the previous one is back: \(detail)"
        case .cannotRollBack(let detail): "cannot roll back: \(detail)"
        }
    }
}
