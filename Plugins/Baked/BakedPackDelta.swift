import Preload

/// The deltas published for updating one version of a baked pack to another
/// (`preload patch OLD NEW -o DIR`; `docs/bake-format.md`, "Deltas"): for each entry of the new
/// pack that changed under its name, and whose Zstandard delta against its old bytes (zstd's
/// `--patch-from`) is smaller than the entry, that delta. The file is named by the old pack's
/// identity (``identity(ofPackHeader:)``) in a folder beside the new pack
/// (`level1.bake.deltas/<identity>`), so that an updater finds the deltas for the version it has
/// from its header alone. All numbers are little-endian.
///
/// ```
/// [header, 160 bytes: magic, version, record count, records' length and CRC-32,
///  the old pack's header, the new pack's header] [records] [deltas, one zstd frame each]
/// ```
///
/// An updater reads the header (``headerSize`` bytes), then the records
/// (``init(header:records:)``), picks the entries whose delta is smaller than the entry, fetches
/// those deltas' ranges and rebuilds each entry with ``rebuild(_:delta:against:)``, which checks
/// the entry's length and CRC-32.
///
/// ```swift
/// import Preload
/// import PreloadBaked
///
/// let file = try FileMapping(path: "published/level1.bake.deltas/1a2b3c4d-1048576")
/// let delta = try file.withUnsafeBytes { bytes in
///     let recordsEnd = BakedPackDelta.headerSize + Int(try BakedPackDelta.recordsLength(inHeader: bytes))
///     return try BakedPackDelta(
///         header: UnsafeRawBufferPointer(rebasing: bytes[0..<BakedPackDelta.headerSize]),
///         records: UnsafeRawBufferPointer(rebasing: bytes[BakedPackDelta.headerSize..<recordsEnd]))
/// }
/// for entry in delta.entries { print(entry.name, entry.delta.count, "bytes instead of", entry.length) }
/// ```
public struct BakedPackDelta: Sendable, Equatable {
    /// One entry of the new pack that comes as a delta.
    public struct Entry: Sendable, Equatable {
        /// The entry's name in the new pack.
        public let name: String
        /// The entry of the old pack it is a delta against (its name there).
        public let reference: String
        /// Where its delta (one zstd frame) lies in the delta file.
        public let delta: Range<UInt64>
        /// The new entry's data length.
        public let length: UInt64
        /// CRC-32 of the new entry's data (its record's ``BakedFormat/Record/dataChecksum``).
        public let checksum: UInt32
        /// The old entry's data length.
        public let referenceLength: UInt64
        /// CRC-32 of the old entry's data: the bytes the delta must be applied against.
        public let referenceChecksum: UInt32
    }

    /// The first 8 bytes: `\x89PDELTA\n`.
    public static let magic: [UInt8] = [0x89, 0x50, 0x44, 0x45, 0x4C, 0x54, 0x41, 0x0A]
    /// The version this library writes and reads.
    public static let version: UInt32 = 1
    /// Bytes in the header: 32 of its own, then the old and the new pack's headers.
    public static let headerSize = 32 + 2 * BakedFormat.headerSize

    /// The old pack's header: the deltas apply to this version of the pack only.
    public let oldHeader: [UInt8]
    /// The new pack's header: the version the deltas build entries of.
    public let newHeader: [UInt8]
    /// The entries that come as deltas, in the order of their deltas in the file.
    public let entries: [Entry]

    /// The deltas of `entries` between the packs whose headers are `oldHeader` and `newHeader`.
    public init(oldHeader: [UInt8], newHeader: [UInt8], entries: [Entry]) {
        self.oldHeader = oldHeader
        self.newHeader = newHeader
        self.entries = entries
    }

    /// The name of the delta file for updating the pack whose header is `header`: the header's
    /// CRC-32 (its last 4 bytes, which cover the index's CRC-32: any entry that changes changes
    /// it) and the pack's length, `1a2b3c4d-1048576`.
    public static func identity(ofPackHeader header: some Collection<UInt8>) -> String {
        let bytes = Array(header)
        guard bytes.count >= BakedFormat.headerSize else { return "none" }
        let length = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) }
        let checksum = bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 60, as: UInt32.self)) }
        let digits = String(checksum, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits + "-\(length)"
    }

    /// The length of the records, from a delta file's first ``headerSize`` bytes (or more).
    /// - Throws: ``BakedDeltaError/notADelta(_:)`` when they are not a delta file's header.
    public static func recordsLength(inHeader header: UnsafeRawBufferPointer) throws(BakedDeltaError) -> UInt64 {
        let reader = ByteReader(header)
        guard header.count >= headerSize, header.prefix(magic.count).elementsEqual(magic) else { throw .notADelta("no delta header") }
        do {
            let version = try reader.littleEndian(at: 8, as: UInt32.self, "the version")
            guard version == Self.version else { throw BakedDeltaError.notADelta("version \(version), this library reads \(Self.version)") }
            let length = try reader.littleEndian(at: 16, as: UInt64.self, "the records' length")
            guard length < 1 << 31 else { throw BakedDeltaError.notADelta("records of \(length) bytes") }
            return length
        } catch let error as BakedDeltaError { throw error } catch { throw .notADelta("\(error)") }
    }

    /// Reads a delta file's header (its first ``headerSize`` bytes) and records (the
    /// ``recordsLength(inHeader:)`` bytes after it), checking the records' CRC-32.
    /// - Throws: ``BakedDeltaError/notADelta(_:)`` or ``BakedDeltaError/damaged(_:)``.
    public init(header: UnsafeRawBufferPointer, records: UnsafeRawBufferPointer) throws(BakedDeltaError) {
        let length = try Self.recordsLength(inHeader: header)
        guard UInt64(records.count) == length else { throw .notADelta("\(records.count) bytes of records, the header says \(length)") }
        let head = ByteReader(header)
        do {
            let count = try head.littleEndian(at: 12, as: UInt32.self, "the record count")
            let checksum = try head.littleEndian(at: 24, as: UInt32.self, "the records' CRC-32")
            guard BakedChecksum.crc32(records) == checksum else { throw BakedDeltaError.damaged("the records' CRC-32 does not match") }
            oldHeader = Array(header[32..<32 + BakedFormat.headerSize])
            newHeader = Array(header[32 + BakedFormat.headerSize..<Self.headerSize])
            var reader = ByteReader(records)
            var entries: [Entry] = []
            for _ in 0..<count {
                let start = try reader.littleEndian(UInt64.self, "a delta's offset")
                let deltaLength = try reader.littleEndian(UInt64.self, "a delta's length")
                let entryLength = try reader.littleEndian(UInt64.self, "an entry's length")
                let entryChecksum = try reader.littleEndian(UInt32.self, "an entry's CRC-32")
                let referenceChecksum = try reader.littleEndian(UInt32.self, "a reference's CRC-32")
                let referenceLength = try reader.littleEndian(UInt64.self, "a reference's length")
                let nameLength = try reader.littleEndian(UInt16.self, "a name's length")
                let referenceNameLength = try reader.littleEndian(UInt16.self, "a reference's name's length")
                let name = String(decoding: try reader.bytes(Int(nameLength), "a name"), as: UTF8.self)
                let reference = String(decoding: try reader.bytes(Int(referenceNameLength), "a reference's name"), as: UTF8.self)
                guard start <= UInt64.max - deltaLength else { throw BakedDeltaError.notADelta("entry '\(name)': its delta lies outside the file") }
                entries.append(
                    Entry(
                        name: name, reference: reference, delta: start..<start + deltaLength, length: entryLength, checksum: entryChecksum,
                        referenceLength: referenceLength, referenceChecksum: referenceChecksum))
            }
            guard reader.remaining == 0 else { throw BakedDeltaError.notADelta("\(reader.remaining) bytes after the last record") }
            self.entries = entries
        } catch let error as BakedDeltaError { throw error } catch { throw .notADelta("\(error)") }
    }

    /// The file's header and records: what ``init(header:records:)`` reads. The deltas follow,
    /// at the offsets the records give.
    public func outline() -> [UInt8] {
        var records: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8), reference = Array(entry.reference.utf8)
            records.appendLittleEndian(entry.delta.lowerBound)
            records.appendLittleEndian(UInt64(entry.delta.count))
            records.appendLittleEndian(entry.length)
            records.appendLittleEndian(entry.checksum)
            records.appendLittleEndian(entry.referenceChecksum)
            records.appendLittleEndian(entry.referenceLength)
            records.appendLittleEndian(UInt16(name.count))
            records.appendLittleEndian(UInt16(reference.count))
            records += name + reference
        }
        var header = Self.magic
        header.appendLittleEndian(Self.version)
        header.appendLittleEndian(UInt32(entries.count))
        header.appendLittleEndian(UInt64(records.count))
        header.appendLittleEndian(BakedChecksum.crc32(records))
        header.appendLittleEndian(UInt32(0))
        return header + oldHeader + newHeader + records
    }

    /// The new entry `entry`, rebuilt from its `delta` (the bytes of its ``Entry/delta`` range)
    /// against the old entry's bytes `reference`; checked against its length and CRC-32.
    /// - Throws: ``BakedDeltaError`` naming the entry: the reference is not the old entry the
    ///   delta was made against, the delta is damaged, or the bytes rebuilt are not the entry.
    public static func rebuild(
        _ entry: Entry, delta: UnsafeRawBufferPointer, against reference: UnsafeRawBufferPointer
    ) throws(BakedDeltaError) -> [UInt8] {
        guard UInt64(reference.count) == entry.referenceLength, BakedChecksum.crc32(reference) == entry.referenceChecksum else {
            throw .wrongReference(entry: entry.name)
        }
        guard entry.length < 1 << 40 else { throw .entryDamaged(entry: entry.name, detail: "an entry of \(entry.length) bytes") }
        let zstd: ZstdLibrary
        do { zstd = try ZstdLibrary.get() } catch { throw .library(error) }
        var failure: ZstdFailure?
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(entry.length) + 1) { buffer, count in
            do throws(ZstdFailure) { count = try zstd.decompress(delta, against: reference, into: UnsafeMutableRawBufferPointer(buffer)) } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw .entryDamaged(entry: entry.name, detail: "\(failure)") }
        guard UInt64(bytes.count) == entry.length else {
            throw .entryDamaged(entry: entry.name, detail: "the delta gives \(bytes.count) bytes, the entry has \(entry.length)")
        }
        let found = BakedChecksum.crc32(bytes)
        guard found == entry.checksum else {
            throw .entryDamaged(entry: entry.name, detail: "the rebuilt bytes' CRC-32 does not match the new index")
        }
        return bytes
    }
}
