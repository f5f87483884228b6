import Preload

/// What a pack holds, whatever its container format: entries by name, where their bytes are, and
/// how to get them back.
public struct PackIndex: Sendable {
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

    public struct Entry: Sendable, Hashable {
        /// The entry's path inside the pack (`/` separators).
        public var name: String
        /// Where its stored bytes start in the file.
        public var offset: UInt64
        public var storedSize: UInt64
        /// The size once inflated, when the format records it reliably (gzip's is modulo 4 GiB).
        public var rawSize: UInt64?
        public var method: Method
        /// CRC-32 of the raw bytes, when the format records it (gzip checks its own).
        public var crc32: UInt32?

        public init(name: String, offset: UInt64, storedSize: UInt64, rawSize: UInt64?, method: Method, crc32: UInt32?) {
            self.name = name
            self.offset = offset
            self.storedSize = storedSize
            self.rawSize = rawSize
            self.method = method
            self.crc32 = crc32
        }
    }

    public let format: Format
    public let entries: [Entry]
    private let byName: [String: Int]

    public init(format: Format, entries: [Entry]) {
        self.format = format
        self.entries = entries
        var byName: [String: Int] = [:]
        for (index, entry) in entries.enumerated() where byName[entry.name] == nil { byName[entry.name] = index }
        self.byName = byName
    }

    public func entry(named name: String) -> Entry? {
        byName[name].map { entries[$0] }
    }
}

/// Why a pack or one of its entries could not be read. Descriptions name the entry; the
/// coordinator's ``AssetError`` puts the pack's path (or `PACK#ENTRY`) in front.
public enum PackError: AssetFailure, Equatable {
    case notAPack
    case unsupported(String)
    case truncated(String)
    case corruptHeader(String)
    case corruptIndex(String)
    case noSuchEntry(String)
    case checksumMismatch(entry: String, expected: UInt32, actual: UInt32)
    case sizeMismatch(entry: String, declared: UInt64, actual: UInt64)
    case inflateFailed(entry: String, detail: String)
    case entryTooLarge(entry: String, limit: Int)
    case ratioTooHigh(entry: String, limit: Int)

    public var category: AssetError.Category {
        switch self {
        case .notAPack, .corruptHeader, .corruptIndex, .checksumMismatch, .sizeMismatch, .inflateFailed: .corrupt
        case .truncated: .truncated
        case .unsupported: .unsupported
        case .noSuchEntry: .fileNotFound
        case .entryTooLarge, .ratioTooHigh: .limitExceeded
        }
    }

    public var description: String {
        switch self {
        case .notAPack: "not a pack (no pack, zip or gzip signature)"
        case .unsupported(let detail): "unsupported pack: \(detail)"
        case .truncated(let detail): "truncated pack: \(detail)"
        case .corruptHeader(let detail): "corrupt pack header: \(detail)"
        case .corruptIndex(let detail): "corrupt pack index: \(detail)"
        case .noSuchEntry(let name): "no entry '\(name)' in the pack"
        case .checksumMismatch(let entry, let expected, let actual):
            "entry '\(entry)': CRC-32 mismatch (recorded \(hex(expected)), read \(hex(actual)))"
        case .sizeMismatch(let entry, let declared, let actual):
            "entry '\(entry)': \(actual) bytes where the index says \(declared)"
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
    /// The most an entry may grow when inflated, raw over stored (default 1024).
    public var maxInflateRatio: Int

    public init(maxEntryBytes: Int = 1 << 30, maxInflateRatio: Int = 1024) {
        self.maxEntryBytes = maxEntryBytes
        self.maxInflateRatio = maxInflateRatio
    }
}
