import Foundation
import Preload

/// A baked pack's index, read and checked: every entry with its name, source and dependencies.
///
/// Reading checks everything the index claims against the file before any entry is touched:
/// the magic, the header's checksum, the version (one the checksum vouches for: otherwise the
/// pack is damaged, not newer), the index's checksum, the file's length, that every
/// entry's data lies between the header and the index without overlapping another's, that
/// every record's kind is in the pack's table of kinds (``BakedMetadata``), that names are unique, UTF-8 and stay inside the pack
/// (no empty, `.` or `..` component, no NUL), and that dependencies name other entries.
public struct BakedIndex: Sendable {
    /// One entry, as the index describes it.
    ///
    /// An entry is made when it is read (``BakedIndex/entries``), from its record as the index
    /// holds it; its name, source path, kind and dependencies are made when asked, from the
    /// entries' names kept one after another and from tables the index keeps once for every
    /// entry (a source path is most often a folder's path and the entry's name, kept as the
    /// folder's number): a pack of a million entries holds no string per entry.
    public struct Entry: Sendable {
        /// Where its data is and what it is.
        public let record: BakedFormat.Record
        /// Its position in the index.
        private let position: Int
        private let tables: EntryTables

        /// Its store name: the name loading its source gave it.
        public var name: String { tables.bytes.name(of: position) }

        /// The file it was baked from, as the bake named it.
        public var sourcePath: String {
            let folder = tables.entryFolders[position]
            return folder == UInt32.max ? tables.otherSources[position] ?? "" : tables.sourceFolders[Int(folder)] + name
        }
        /// Its kind's name (`texture`, `atlas`, a plugin's own): what reads it
        /// (`BakeableAsset.bakedKind`).
        public var kind: String { tables.kinds[Int(record.kind) - 1] }
        /// The entries it depends on, by position in ``BakedIndex/entries``.
        public var dependencies: [Int] {
            record.dependencies.isEmpty ? [] : record.dependencies.map { Int(tables.dependencies[Int($0)]) }
        }

        /// Whether a request for the pack requests it (else another entry loads it).
        public var isRequestedWithPack: Bool { record.bits.isDisjoint(with: [.dependency, .atlasPage]) }

        fileprivate init(record: BakedFormat.Record, position: Int, tables: EntryTables) {
            self.record = record
            self.position = position
            self.tables = tables
        }
    }

    /// A pack's entries in index order, each made when it is read (its record parsed from the
    /// index: a few loads).
    public struct Entries: RandomAccessCollection, Sendable {
        private let tables: EntryTables
        /// How many entries.
        public let endIndex: Int
        /// The first entry's position: 0.
        public var startIndex: Int { 0 }

        fileprivate init(tables: EntryTables, count: Int) {
            self.tables = tables
            endIndex = count
        }

        /// The bytes kept of each record.
        var recordBytes: Int { tables.bytes.recordBytes }

        /// The data length of the entry at `position` (its record's ``BakedFormat/Record/dataLength``),
        /// read without making the entry.
        func dataLength(at position: Int) -> UInt64 {
            precondition(position >= 0 && position < endIndex, "entry \(position) of \(endIndex)")
            return tables.bytes.dataLength(of: position)
        }

        /// The entry at `position`.
        public subscript(position: Int) -> Entry {
            precondition(position >= 0 && position < endIndex, "entry \(position) of \(endIndex)")
            return Entry(record: tables.bytes.record(of: position), position: position, tables: tables)
        }
    }

    /// The header.
    public let header: BakedFormat.Header
    /// The warnings loading each entry's source gave, by entry position (most have none): a
    /// baked entry reports them again when it loads, as the loose file would.
    public var warnings: [Int: [AssetWarning]] { metadata.warnings }
    /// The pack's table of kinds and its warnings.
    public let metadata: BakedMetadata
    /// The entries, in index order.
    public let entries: Entries
    /// Positions by name, made when first asked (reading the index checks names with a table it
    /// lets go).
    private let byName = BakedNameLookup()

    /// The entry named `name`.
    public func entry(named name: String) -> Entry? { position(of: name).map { entries[$0] } }
    /// The position of the entry named `name` in ``entries`` (the first lookup of an index makes
    /// its table of names: a few instructions an entry).
    public func position(of name: String) -> Int? { byName.position(of: name, count: entries.count) { entries[$0].name } }

    /// Whether the index holds its table of names (made by the first lookup by name; for the tests).
    var holdsNameTable: Bool { byName.isMade }
    /// The bytes the index keeps of each record (for the tests).
    var keptRecordBytes: Int { entries.recordBytes }

    /// Reads the index of the pack whose whole file is `file`, checking it (see the type's
    /// description); `checksum` is CRC-32. The index keeps what it needs of `file` (its records
    /// and names, its tables), not `file`.
    ///
    /// With `wholeRecords` off, it keeps only what loading an entry reads of each record (36 of
    /// its 64 bytes: where its data is, its length and checksum, its size in pixels, its
    /// dependencies, kind and flags): each ``Entry/record`` then has a source size and checksum
    /// of 0 and empty string ranges (``Entry/name`` and ``Entry/sourcePath`` are read as ever).
    /// What the baked-pack loader keeps of each pack it opens: 28 bytes an entry less, where
    /// checking a pack against its sources (`preload bake --check`) reads them all.
    public init(file: UnsafeRawBufferPointer, checksum: (UnsafeRawBufferPointer) -> UInt32, wholeRecords: Bool = true) throws(BakedPackError) {
        let size = file.count
        guard size >= BakedFormat.headerSize else {
            // What there is must start the signature: a short file of something else is not a cut pack.
            if !file.prefix(8).elementsEqual(BakedFormat.magic.prefix(size)) { throw .notABakedPack }
            throw .truncated("the file has \(size) bytes, fewer than a header's \(BakedFormat.headerSize)")
        }
        let header = try Self.header(of: file, checksum: checksum)
        guard header.fileLength == UInt64(size) else {
            throw header.fileLength > UInt64(size)
                ? .truncated("the header says \(header.fileLength) bytes, the file has \(size)")
                : .damaged("the header says \(header.fileLength) bytes, the file has \(size)")
        }
        let indexEnd = try Self.indexEnd(of: header)
        try self.init(
            header: header, index: UnsafeRawBufferPointer(rebasing: file[Int(header.indexOffset)..<Int(indexEnd)]), checksum: checksum,
            wholeRecords: wholeRecords)
    }

    /// Reads the index of a pack from its first ``BakedFormat/headerSize`` bytes (`header`) and
    /// its index's bytes (`index`, the header's ``BakedFormat/Header/indexOffset`` and
    /// ``BakedFormat/Header/indexLength``), without its entries' data: what an updater reads of
    /// a new pack before it fetches what changed (``BakedPackDiff``). Checks what
    /// ``init(file:checksum:wholeRecords:)`` checks but the entries' data and the file's length
    /// (the header's must hold the index).
    public init(
        header: UnsafeRawBufferPointer, index: UnsafeRawBufferPointer, checksum: (UnsafeRawBufferPointer) -> UInt32, wholeRecords: Bool = true
    ) throws(BakedPackError) {
        guard header.count >= BakedFormat.headerSize else {
            throw .truncated("the header has \(header.count) bytes, fewer than \(BakedFormat.headerSize)")
        }
        let parsed = try Self.header(of: header, checksum: checksum)
        let indexEnd = try Self.indexEnd(of: parsed)
        guard UInt64(index.count) == parsed.indexLength else {
            throw .truncated("the header says the index has \(parsed.indexLength) bytes, \(index.count) were given")
        }
        guard indexEnd <= parsed.fileLength else {
            throw .malformed("the index (\(parsed.indexOffset) + \(parsed.indexLength) bytes) lies outside the file")
        }
        try self.init(header: parsed, index: index, checksum: checksum, wholeRecords: wholeRecords)
    }

    /// The header at the start of `file` (at least ``BakedFormat/headerSize`` bytes), checked.
    static func header(of file: UnsafeRawBufferPointer, checksum: (UnsafeRawBufferPointer) -> UInt32) throws(BakedPackError) -> BakedFormat.Header {
        guard file.prefix(8).elementsEqual(BakedFormat.magic) else { throw .notABakedPack }
        // The checksum first: a version it does not vouch for is a damaged byte, not a newer
        // format (every version keeps the magic, the version and this checksum where they are).
        let version: UInt32 = file.littleEndian(at: 8)
        guard checksum(UnsafeRawBufferPointer(rebasing: file[0..<60])) == file.littleEndian(at: 60, as: UInt32.self) else {
            guard BakedFormat.readableVersions.contains(version) else {
                throw .damaged("the header's checksum does not match (so its version field, \(version), is not to be trusted either)")
            }
            throw .damaged("the header's checksum does not match")
        }
        guard BakedFormat.readableVersions.contains(version) else { throw .unsupportedVersion(version) }
        let header = BakedFormat.Header(
            flags: .init(rawValue: file.littleEndian(at: 12)), fileLength: file.littleEndian(at: 16), indexOffset: file.littleEndian(at: 24),
            indexLength: file.littleEndian(at: 32), entryCount: file.littleEndian(at: 40), dependencyCount: file.littleEndian(at: 48),
            indexChecksum: file.littleEndian(at: 44), metadata: try Self.range(at: 52, in: file), version: version)
        guard header.flags.isSubset(of: BakedFormat.Flags.all) else {
            throw .malformed("unknown header flags 0x\(String(header.flags.rawValue, radix: 16)) (written by a newer Preload?)")
        }
        return header
    }

    /// Where `header`'s index ends, checked against the file's length the header gives.
    private static func indexEnd(of header: BakedFormat.Header) throws(BakedPackError) -> UInt64 {
        let (indexEnd, overflow) = header.indexOffset.addingReportingOverflow(header.indexLength)
        guard !overflow, header.indexOffset >= UInt64(BakedFormat.headerSize), indexEnd <= header.fileLength else {
            throw .malformed("the index (\(header.indexOffset) + \(header.indexLength) bytes) lies outside the file")
        }
        return indexEnd
    }

    /// Reads the index `index` of the pack whose header is `header` (checked).
    private init(
        header: BakedFormat.Header, index: UnsafeRawBufferPointer, checksum: (UnsafeRawBufferPointer) -> UInt32, wholeRecords: Bool
    ) throws(BakedPackError) {
        guard checksum(index) == header.indexChecksum else { throw .damaged("the index's checksum does not match") }
        let records = UInt64(header.entryCount) * UInt64(BakedFormat.recordSize)
        let table = UInt64(header.dependencyCount) * 4
        guard records + table <= header.indexLength else {
            throw .malformed("the index is \(header.indexLength) bytes, too short for \(header.entryCount) entries")
        }
        let strings = UnsafeRawBufferPointer(rebasing: index[Int(records + table)...])
        let count = Int(header.entryCount)
        let metadata = try BakedMetadata(
            text: header.metadata.isEmpty ? nil : try Self.string(header.metadata, in: strings, what: { "the metadata" }), version: header.version,
            entries: count)
        var byName = BakedNameTable(count: count)
        var dependencyTable: [UInt32] = []
        dependencyTable.reserveCapacity(Int(header.dependencyCount))
        for slot in 0..<Int(header.dependencyCount) { dependencyTable.append(index.littleEndian(at: Int(records) + slot * 4)) }
        // Source paths first; each record is parsed again below rather than kept from this pass:
        // parsing one is a few loads, keeping them all would hold another record per entry while
        // the index is read.
        let (entryFolders, sources) = try EntrySources.read(count: count, index: index, strings: strings)
        let name = { (position: Int) in
            let range = Self.uncheckedRecord(in: index, at: position).name
            return String(decoding: strings[Int(range.lowerBound)..<Int(range.upperBound)], as: UTF8.self)
        }
        // The names one after another: what an entry's name is made from when it is read.
        var names: [UInt8] = [], nameEnds: [UInt32] = []
        nameEnds.reserveCapacity(count)
        // (Sized once: their lengths, at most the strings' size; a damaged length is caught below.)
        let namesSize = (0..<count).reduce(UInt64(0)) { $0 + UInt64(index.littleEndian(at: $1 * BakedFormat.recordSize + 36, as: UInt32.self)) }
        names.reserveCapacity(Int(min(namesSize, UInt64(strings.count))))
        for position in 0..<count {
            let base = position * BakedFormat.recordSize
            let record = try Self.record(in: index, at: base, position: position)
            guard record.kind >= 1, Int(record.kind) <= metadata.kinds.count else {
                throw .malformed("entry \(position + 1) has an unknown kind (\(record.kind))")
            }
            guard record.bits.isSubset(of: BakedFormat.Record.Bits.all) else {
                throw .malformed("entry \(position + 1) has unknown flag bits 0x\(String(record.bits.rawValue, radix: 16))")
            }
            let entryName = try Self.string(record.name, in: strings, what: { "entry \(position + 1)'s name" })
            try Self.checkName(entryName, position: position)
            try Self.checkData(record, name: entryName, dataEnd: header.indexOffset)
            guard UInt64(record.dependencies.upperBound) <= UInt64(header.dependencyCount) else {
                throw .malformed("entry '\(entryName)': its dependencies lie outside the index's table")
            }
            for slot in record.dependencies {
                let dependency = Int(dependencyTable[Int(slot)])
                guard dependency < count, dependency != position else {
                    throw .malformed("entry '\(entryName)': dependency #\(dependency + 1) is not another entry")
                }
            }
            guard byName.insert(entryName, at: position, names: name) else { throw .malformed("two entries are named '\(entryName)'") }
            names.append(contentsOf: strings[Int(record.name.lowerBound)..<Int(record.name.upperBound)])
            guard names.count <= Int(UInt32.max) else { throw .malformed("the entries' names are more than 4 GB") }
            nameEnds.append(UInt32(names.count))
        }
        try Self.checkNoOverlap(count: count, in: index, name: name)
        let kept = BakedIndexBytes(
            records: UnsafeRawBufferPointer(rebasing: index[0..<Int(records)]), names: names, nameEnds: nameEnds, wholeRecords: wholeRecords)
        let tables = EntryTables(
            bytes: kept, kinds: metadata.kinds, dependencies: dependencyTable,
            sourceFolders: sources.folders, entryFolders: entryFolders, otherSources: sources.others)
        self.header = header
        self.entries = Entries(tables: tables, count: count)  // (`byName`, the check's table, goes)
        self.metadata = metadata
    }

    /// No two entries' data may overlap: a damaged index could otherwise make two assets of one
    /// range. Compares the ranges in offset order (the order a bake writes them, so most packs
    /// need no sorting); `name` names an entry in the error.
    private static func checkNoOverlap(count: Int, in index: UnsafeRawBufferPointer, name: (Int) -> String) throws(BakedPackError) {
        var ranges: [(start: UInt64, end: UInt64, position: Int)] = []
        ranges.reserveCapacity(count)
        var sorted = true
        for position in 0..<count {
            let record = uncheckedRecord(in: index, at: position)
            guard record.dataLength > 0 else { continue }
            if let last = ranges.last, last.start > record.dataOffset { sorted = false }
            ranges.append((record.dataOffset, record.dataOffset + record.dataLength, position))
        }
        if !sorted { ranges.sort { $0.start < $1.start } }
        for next in ranges.indices.dropFirst() where ranges[next - 1].end > ranges[next].start {
            throw .malformed("entries '\(name(ranges[next - 1].position))' and '\(name(ranges[next].position))' overlap")
        }
    }

    /// The record at `position` of an index whose records were checked (its ranges do not
    /// overflow).
    @inline(__always)
    static func uncheckedRecord(in index: UnsafeRawBufferPointer, at position: Int) -> BakedFormat.Record {
        // (Checked by `record(in:at:position:)` for every entry when the index was read.)
        (try? record(in: index, at: position * BakedFormat.recordSize, position: position))!
    }

    /// The `UInt32` start and length at `offset` of the header, as a range.
    private static func range(at offset: Int, in file: UnsafeRawBufferPointer) throws(BakedPackError) -> Range<UInt32> {
        let start: UInt32 = file.littleEndian(at: offset), length: UInt32 = file.littleEndian(at: offset + 4)
        let (end, overflow) = start.addingReportingOverflow(length)
        guard !overflow else { throw .malformed("the header's metadata range overflows") }
        return start..<end
    }

    static func record(in index: UnsafeRawBufferPointer, at base: Int, position: Int) throws(BakedPackError) -> BakedFormat.Record {
        func range(_ offset: Int) -> Range<UInt32>? {
            let start: UInt32 = index.littleEndian(at: base + offset), length: UInt32 = index.littleEndian(at: base + offset + 4)
            let (end, overflow) = start.addingReportingOverflow(length)
            return overflow ? nil : start..<end
        }
        let dependencyStart: UInt32 = index.littleEndian(at: base + 56)
        let dependencyCount: UInt16 = index.littleEndian(at: base + 60)
        let (dependencyEnd, overflow) = dependencyStart.addingReportingOverflow(UInt32(dependencyCount))
        guard let name = range(32), let source = range(40), !overflow else {
            throw .malformed("entry \(position + 1): a range in its record overflows")
        }
        return BakedFormat.Record(
            dataOffset: index.littleEndian(at: base), dataLength: index.littleEndian(at: base + 8), sourceSize: index.littleEndian(at: base + 16),
            dataChecksum: index.littleEndian(at: base + 24), sourceChecksum: index.littleEndian(at: base + 28), name: name, sourcePath: source,
            width: index.littleEndian(at: base + 48), height: index.littleEndian(at: base + 52), dependencies: dependencyStart..<dependencyEnd,
            kind: index[base + 62], bits: .init(rawValue: index[base + 63]))
    }

    /// The string at `range`; `what` names it in an error (made only then).
    static func string(_ range: Range<UInt32>, in strings: UnsafeRawBufferPointer, what: () -> String) throws(BakedPackError) -> String {
        guard Int(range.upperBound) <= strings.count else { throw .malformed("\(what()) lies outside the index") }
        let bytes = UnsafeRawBufferPointer(rebasing: strings[Int(range.lowerBound)..<Int(range.upperBound)])
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .malformed("\(what()) is not UTF-8") }
        return text
    }

    /// A name must stay inside the pack: a tool that extracts a pack writes files under its names.
    /// One pass over the bytes (a pack of 20,000 sprites checks 20,000 names).
    private static func checkName(_ name: String, position: Int) throws(BakedPackError) {
        guard !name.isEmpty else { throw .malformed("entry \(position + 1) has an empty name") }
        guard BakedIndex.staysInside(name) else { throw .nameEscapes("'\(name.debugDescription.dropFirst().dropLast())'") }
    }

    /// Whether `name` is relative, without NUL and without an empty, `.` or `..` component.
    public static func staysInside(_ name: String) -> Bool {
        var component = 0  // bytes in the component so far
        var dots = 0  // of them, dots
        for byte in name.utf8 {
            switch byte {
            case 0: return false
            case UInt8(ascii: "/"):
                guard component > 0, !(component == dots && dots <= 2) else { return false }
                (component, dots) = (0, 0)
            case UInt8(ascii: "."):
                component += 1
                dots += 1
            default:
                component += 1
            }
        }
        return component > 0 && !(component == dots && dots <= 2)
    }

    private static func checkData(_ record: BakedFormat.Record, name: String, dataEnd: UInt64) throws(BakedPackError) {
        let (end, overflow) = record.dataOffset.addingReportingOverflow(record.dataLength)
        guard !overflow, record.dataOffset >= UInt64(BakedFormat.headerSize), end <= dataEnd else {
            throw .malformed("entry '\(name)': its data (\(record.dataOffset) + \(record.dataLength) bytes) lies outside the data area")
        }
    }
}
