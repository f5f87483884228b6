/// What updating a baked pack from an old version to a new one moves, entry by entry: each entry
/// of the new pack is taken from the old pack when the old holds the same bytes (the same data
/// length and CRC-32, under the same name or, failing that, any name), else fetched from the new
/// pack; the entries to fetch are merged into byte ranges of the new pack for HTTP `Range`
/// requests. Made from the two packs' indexes alone (``BakedIndex``,
/// ``BakedIndex/init(header:index:checksum:wholeRecords:)`` for the new pack's header and index
/// fetched first); ``BakedPackPatch`` then writes the new pack from the old file and the fetched
/// ranges.
///
/// The diff does not depend on where entries lie: an entry taken from the old pack is read from
/// its offset there and written at its offset in the new pack, so a bake that moves every offset
/// (an entry added near the start) costs only the bytes of the entries that changed.
///
/// ```swift
/// import Preload
/// import PreloadBaked
///
/// let old = try FileMapping(path: "level1.bake").withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
/// let new = try FileMapping(path: "build/level1.bake").withUnsafeBytes { try BakedIndex(file: $0, checksum: BakedChecksum.crc32) }
/// let diff = BakedPackDiff(old: old, new: new)
/// print("\(diff.fetched.count) entries to fetch in \(diff.requests.count) ranges: \(diff.bytesToMove) of \(diff.packLength) bytes")
/// ```
public struct BakedPackDiff: Sendable, Equatable {
    /// One entry of the new pack, and where its bytes come from.
    public struct Piece: Sendable, Equatable {
        /// The entry's name in the new pack.
        public let name: String
        /// Where its data lies in the new pack (where a fetched entry is fetched from).
        public let target: Range<UInt64>
        /// Where the same bytes lie in the old pack, for an entry taken from it; `nil` for one
        /// to fetch.
        public let old: Range<UInt64>?
        /// CRC-32 of its data (its record's ``BakedFormat/Record/dataChecksum``).
        public let checksum: UInt32
    }

    /// The gap ``init(old:new:mergingGapsUpTo:)`` merges by default: 4,096 bytes. Entries are
    /// padded to at most 4 KiB (``BakedFormat/pageAlignment``), so two entries to fetch that
    /// follow one another are always one range, and an unchanged entry of at most a page between
    /// two changed ones is fetched rather than cost another range (a part's headers and, on a
    /// server that takes one range a request, a round trip).
    public static let defaultMergeGap: UInt64 = 4096

    /// Every entry of the new pack, in the order of its data in the file.
    public let pieces: [Piece]
    /// The byte ranges of the new pack to request, in order, not overlapping: each entry to
    /// fetch, neighbours merged when the bytes between them are at most ``mergeGap``.
    public let requests: [Range<UInt64>]
    /// The widest gap merged into one range.
    public let mergeGap: UInt64
    /// The new pack's length.
    public let packLength: UInt64
    /// The new pack's header and index: ``BakedFormat/headerSize`` bytes and the index, read
    /// before anything else (they are what the diff was made from).
    public let outlineBytes: UInt64

    /// The entries taken from the old pack.
    public var reused: [Piece] { pieces.filter { $0.old != nil } }
    /// The entries to fetch from the new pack.
    public var fetched: [Piece] { pieces.filter { $0.old == nil } }
    /// The data bytes of the entries to fetch (without what merging adds).
    public var fetchedEntryBytes: UInt64 { fetched.reduce(0) { $0 + UInt64($1.target.count) } }
    /// The bytes ``requests`` ask for.
    public var requestedBytes: UInt64 { requests.reduce(0) { $0 + UInt64($1.count) } }
    /// What the update moves over the network: the header and index, and ``requestedBytes``.
    public var bytesToMove: UInt64 { outlineBytes + requestedBytes }

    /// The diff from the pack indexed by `old` to the one indexed by `new`, merging ranges whose
    /// gap is at most `mergeGap` bytes.
    public init(old: BakedIndex, new: BakedIndex, mergingGapsUpTo mergeGap: UInt64 = BakedPackDiff.defaultMergeGap) {
        struct Content: Hashable {
            let length: UInt64
            let checksum: UInt32
        }
        var byContent: [Content: Range<UInt64>] = [:]
        for entry in old.entries {
            let record = entry.record
            let content = Content(length: record.dataLength, checksum: record.dataChecksum)
            if byContent[content] == nil { byContent[content] = record.dataOffset..<record.dataOffset + record.dataLength }
        }
        var pieces: [Piece] = []
        pieces.reserveCapacity(new.entries.count)
        for entry in new.entries {
            let record = entry.record, name = entry.name
            let target = record.dataOffset..<record.dataOffset + record.dataLength
            var source: Range<UInt64>?
            if record.dataLength == 0 {
                source = target  // nothing to read
            } else if let same = old.entry(named: name)?.record, same.dataLength == record.dataLength, same.dataChecksum == record.dataChecksum {
                source = same.dataOffset..<same.dataOffset + same.dataLength
            } else {
                source = byContent[Content(length: record.dataLength, checksum: record.dataChecksum)]
            }
            pieces.append(Piece(name: name, target: target, old: source, checksum: record.dataChecksum))
        }
        pieces.sort { $0.target.lowerBound < $1.target.lowerBound }
        var requests: [Range<UInt64>] = []
        for piece in pieces where piece.old == nil {
            if let last = requests.last, piece.target.lowerBound - last.upperBound <= mergeGap {
                requests[requests.count - 1] = last.lowerBound..<piece.target.upperBound
            } else {
                requests.append(piece.target)
            }
        }
        self.pieces = pieces
        self.requests = requests
        self.mergeGap = mergeGap
        packLength = new.header.fileLength
        outlineBytes = UInt64(BakedFormat.headerSize) + new.header.indexLength
    }
}
