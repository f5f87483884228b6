import Preload

/// What a pack holds, whatever its container format: entries by name, where their bytes are, and
/// how to get them back.
public struct PackIndex: Sendable {
    /// The container an index was read from.
    public enum Format: String, Sendable, Hashable {
        case pak, zip, gzip
    }

    /// How an entry's bytes are stored.
    public enum Method: String, Sendable, Hashable {
        case stored
        /// A zlib stream (RFC 1950): `.pak` entries.
        case zlib
        /// Raw deflate: zip entries.
        case deflate
        /// A gzip member (RFC 1952): `.gz` files.
        case gzip
    }

    /// One entry: its name, where its stored bytes are, and how to get the raw bytes back.
    public struct Entry: Sendable, Hashable {
        /// The entry's path inside the pack (`/` separators).
        public var name: String
        /// Where its stored bytes start in the file.
        public var offset: UInt64
        /// Bytes the entry takes in the file.
        public var storedSize: UInt64
        /// The size once inflated, when the format records it reliably (gzip's is modulo 4 GiB).
        public var rawSize: UInt64?
        /// How it is stored.
        public var method: Method
        /// CRC-32 of the raw bytes, when the format records it (gzip checks its own).
        public var crc32: UInt32?
        /// Why the entry cannot be read although the pack lists it (an encrypted zip entry, a
        /// compression method other than deflate, a damaged local header); reading it throws this.
        public var problem: PackError?

        /// An entry as the index describes it.
        public init(
            name: String, offset: UInt64, storedSize: UInt64, rawSize: UInt64?, method: Method, crc32: UInt32?,
            problem: PackError? = nil
        ) {
            self.name = name
            self.offset = offset
            self.storedSize = storedSize
            self.rawSize = rawSize
            self.method = method
            self.crc32 = crc32
            self.problem = problem
        }
    }

    /// The container format.
    public let format: Format
    /// The entries, in the order the index lists them.
    public let entries: [Entry]
    private let byName: [String: Int]

    /// An index of `entries`; a name listed again (zip archives allow it) keeps its first entry,
    /// and the later ones get a ``Entry/problem``, as does every name that would reach outside
    /// the archive (`PackEntryName/escapeReason(_:)`): reading it fails by name, wherever it
    /// is read (loading, listing with `--verify`, another plugin reading through the pack).
    public init(format: Format, entries: [Entry]) {
        var entries = entries
        var byName: [String: Int] = [:]
        for index in entries.indices {
            if let reason = PackEntryName.escapeReason(entries[index].name) {
                entries[index].problem = .escapingName(entry: entries[index].name, reason: reason)
            }
            if byName[entries[index].name] == nil {
                byName[entries[index].name] = index
            } else if entries[index].problem == nil {
                entries[index].problem = .corruptIndex("entry '\(entries[index].name)' is listed more than once")
            }
        }
        self.format = format
        self.entries = entries
        self.byName = byName
    }

    /// The entry called `name`, if there is one.
    public func entry(named name: String) -> Entry? {
        byName[name].map { entries[$0] }
    }
}

/// Why a pack or one of its entries could not be read. Descriptions name the entry; the
/// coordinator's `AssetError` puts the pack's path (or `PACK#ENTRY`) in front.
public enum PackError: AssetFailure, Hashable {
    case notAPack
    case unsupported(String)
    case unreadableEntry(entry: String, reason: String)
    case truncated(String)
    case corruptHeader(String)
    case corruptIndex(String)
    case noSuchEntry(String)
    /// The entry's name would reach outside the archive (`../x`, `/x`, `C:x`, `..\x`).
    case escapingName(entry: String, reason: String)
    case checksumMismatch(entry: String, expected: UInt32, actual: UInt32)
    case sizeMismatch(entry: String, declared: UInt64, actual: UInt64)
    case largerThanDeclared(entry: String, declared: UInt64)
    case inflateFailed(entry: String, detail: String)
    case entryTooLarge(entry: String, limit: Int)
    case ratioTooHigh(entry: String, limit: Int)

    public var category: AssetError.Category {
        switch self {
        case .notAPack, .corruptHeader, .corruptIndex, .escapingName, .checksumMismatch, .sizeMismatch, .largerThanDeclared, .inflateFailed: .corrupt
        case .truncated: .truncated
        case .unsupported, .unreadableEntry: .unsupported
        case .noSuchEntry: .fileNotFound
        case .entryTooLarge, .ratioTooHigh: .limitExceeded
        }
    }

    public var description: String {
        switch self {
        case .notAPack: "not a pack (no pack, zip or gzip signature)"
        case .unsupported(let detail): "unsupported pack: \(detail)"
        case .unreadableEntry(let entry, let reason): "entry '\(entry)' cannot be read: \(reason)"
        case .truncated(let detail): "truncated pack: \(detail)"
        case .corruptHeader(let detail): "corrupt pack header: \(detail)"
        case .corruptIndex(let detail): "corrupt pack index: \(detail)"
        case .noSuchEntry(let name): "no entry '\(name)' in the pack"
        case .escapingName(let entry, let reason): "entry '\(entry)' would reach outside the archive: \(reason)"
        case .checksumMismatch(let entry, let expected, let actual):
            "entry '\(entry)': CRC-32 mismatch (recorded \(hex(expected)), read \(hex(actual)))"
        case .sizeMismatch(let entry, let declared, let actual):
            "entry '\(entry)': \(actual) bytes where the index says \(declared)"
        case .largerThanDeclared(let entry, let declared): "entry '\(entry)' inflates to more than the \(declared) bytes the index says"
        case .inflateFailed(let entry, let detail): "entry '\(entry)': \(detail)"
        case .entryTooLarge(let entry, let limit): "entry '\(entry)' inflates past the limit of \(limit) bytes"
        case .ratioTooHigh(let entry, let limit): "entry '\(entry)' inflates more than \(limit) times its stored size (a decompression bomb?)"
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

/// Limits that stop decompression bombs, enforced while inflating (declared sizes are not trusted).
public struct PackLimits: Hashable, Sendable {
    /// The most bytes one entry may inflate to (default 1 GiB).
    public var maxEntryBytes: Int
    /// The most an entry may grow when inflated, raw over stored (default 1024). Deflate cannot
    /// pass about 1032, which long runs of one byte reach: hence ``ratioCheckedAbove``.
    public var maxInflateRatio: Int
    /// The ratio is only enforced once an entry has inflated past this many bytes (default
    /// 16 MiB), so small runs of zeros load while a bomb stops early.
    public var ratioCheckedAbove: Int

    /// Defaults: entries up to 1 GiB, inflating at most 1024 times their stored size when larger than 16 MiB.
    public init(maxEntryBytes: Int = 1 << 30, maxInflateRatio: Int = 1024, ratioCheckedAbove: Int = 16 << 20) {
        self.maxEntryBytes = maxEntryBytes
        self.maxInflateRatio = maxInflateRatio
        self.ratioCheckedAbove = ratioCheckedAbove
    }

    /// Whether `raw` bytes made from `stored` bytes break the ratio limit. (`stored` may come
    /// from a hostile index: a product past 2^64 allows anything, it does not trap.)
    func ratioExceeded(raw: UInt64, stored: UInt64) -> Bool {
        guard raw > UInt64(clamping: ratioCheckedAbove) else { return false }
        let (allowed, overflow) = UInt64(clamping: maxInflateRatio).multipliedReportingOverflow(by: max(stored, 1))
        return !overflow && raw > allowed
    }

    /// ``maxEntryBytes`` as the readers use it: at least 0, and one below `Int.max` so that
    /// one byte of room past it (the proof that an entry is larger) is still an `Int`.
    var entryCeiling: Int { min(max(maxEntryBytes, 0), Int.max - 1) }

    /// The same limits with at most `bytes` per entry.
    func capped(at bytes: Int) -> PackLimits {
        var limits = self
        limits.maxEntryBytes = min(bytes, maxEntryBytes)
        return limits
    }
}
