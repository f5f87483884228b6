import PreloadBaked

/// The changed entries of a ``PackUpdate`` that come as Zstandard deltas against the installed
/// pack's entries: the deltas `preload patch OLD NEW -o DIR` published beside the pack for the
/// installed version (`PACK.deltas/<identity>`, `BakedPackDelta`), each used where it is
/// smaller than its entry. The other changed and new entries are fetched from the pack as
/// without deltas (``requests``).
public struct PackDeltas: Sendable, Equatable {
    /// One entry that comes as a delta: where it goes in the new pack, and the installed
    /// entry it is rebuilt against.
    struct Chosen: Sendable, Equatable {
        let entry: BakedPackDelta.Entry
        let target: Range<UInt64>
        let reference: Range<UInt64>
    }

    /// The delta file's URL.
    public let url: String
    /// The delta file's ETag, if the server gave one (its deltas are asked with `If-Range`).
    public let etag: String?
    /// The ranges of the new pack still fetched: the changed and new entries without a smaller
    /// delta (neighbours merged as in `BakedPackDiff/requests`).
    public let requests: [Range<UInt64>]
    let chosen: [Chosen]

    /// The entries that come as deltas.
    public var entries: [BakedPackDelta.Entry] { chosen.map(\.entry) }
    /// The bytes of their deltas.
    public var deltaBytes: UInt64 { chosen.reduce(0) { $0 + UInt64($1.entry.delta.count) } }
    /// The bytes of those entries: what fetching them would move instead.
    public var entryBytes: UInt64 { chosen.reduce(0) { $0 + $1.entry.length } }
    /// What the update moves: the deltas and ``requests``.
    public var bytesToMove: UInt64 { deltaBytes + requests.reduce(0) { $0 + UInt64($1.count) } }
}

/// What the deltas brought in one ``PackUpdater/apply(_:to:verify:progress:)``.
struct PackDeltaUse {
    var entries = 0
    var entryBytes: UInt64 = 0
    var bytes: UInt64 = 0
    var requests = 0
    var warnings: [String] = []

    /// `result` with the deltas' entries, bytes, requests and warnings counted in.
    func counted(in result: PackUpdateResult) -> PackUpdateResult {
        var result = result
        result.networkBytes += bytes
        result.requests += requests
        result.deltaEntries = entries
        result.deltaBytes = bytes
        result.deltaEntryBytes = entryBytes
        result.warnings += warnings
        return result
    }
}
