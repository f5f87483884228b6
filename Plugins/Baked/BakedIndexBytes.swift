/// What a ``BakedIndex`` keeps of its pack's index to make an entry when it is read: a copy of
/// the records (parsed when read) and the entries' names one after another (with where each
/// ends), not a Swift record and string made for each entry when the pack is opened (170 bytes
/// an entry, most of what a pack of a million tiny entries held). The index's other strings
/// (source paths) are kept as ``EntryTables`` keeps them.
///
/// The records are copied whole (64 bytes an entry), or only what loading an entry reads of one
/// (36 bytes: its data's offset, length and checksum, its size in pixels, its dependencies, kind
/// and flags), for an index read only to load from (the baked-pack loader's).
final class BakedIndexBytes: @unchecked Sendable {  // immutable once made; its buffer is its own
    /// The records kept, ``recordBytes`` each.
    private let records: UnsafeRawBufferPointer
    /// The bytes kept of each record: ``BakedFormat/recordSize``, or ``loadingRecordSize``.
    let recordBytes: Int
    /// The names' bytes, one after another.
    private let names: [UInt8]
    /// Where each entry's name ends in ``names`` (where the next one starts).
    private let nameEnds: [UInt32]

    /// What loading reads of a record, where a record has it: the data's offset and length
    /// (bytes 0 to 16), its checksum (24), the width and height, the dependencies, the kind and
    /// the flags (48 to 64).
    private static let loadingParts: [(from: Int, count: Int)] = [(0, 16), (24, 4), (48, 16)]
    /// The bytes kept of a record when only what loading reads is.
    static let loadingRecordSize = 36

    /// A copy of the index's `records` (whole, or only what loading reads of each unless
    /// `wholeRecords`) and the names `names`, each ending where `nameEnds` says.
    init(records: UnsafeRawBufferPointer, names: [UInt8], nameEnds: [UInt32], wholeRecords: Bool = true) {
        let count = records.count / BakedFormat.recordSize
        recordBytes = wholeRecords ? BakedFormat.recordSize : Self.loadingRecordSize
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count * recordBytes, 1), alignment: 8)
        if wholeRecords {
            copy.copyMemory(from: records)
        } else {
            for position in 0..<count {
                var to = position * recordBytes
                for part in Self.loadingParts {
                    let from = position * BakedFormat.recordSize + part.from
                    UnsafeMutableRawBufferPointer(rebasing: copy[to..<to + part.count]).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: records[from..<from + part.count]))
                    to += part.count
                }
            }
        }
        self.records = UnsafeRawBufferPointer(copy)
        self.names = names
        self.nameEnds = nameEnds
    }

    deinit { records.deallocate() }

    /// The name of entry `position` (checked to be UTF-8 when the index was read).
    func name(of position: Int) -> String {
        let start = position == 0 ? 0 : Int(nameEnds[position - 1])
        return names.withUnsafeBufferPointer { String(decoding: $0[start..<Int(nameEnds[position])], as: UTF8.self) }
    }

    /// The data length of entry `position` (at the same place in either copy).
    func dataLength(of position: Int) -> UInt64 { records.littleEndian(at: position * recordBytes + 8) }

    /// The record of entry `position`, checked when the index was read. From a copy of what
    /// loading reads, its source size and checksum are 0 and its string ranges empty.
    func record(of position: Int) -> BakedFormat.Record {
        if recordBytes == BakedFormat.recordSize { return BakedIndex.uncheckedRecord(in: records, at: position) }
        let base = position * recordBytes
        let dependencyStart: UInt32 = records.littleEndian(at: base + 28)
        let dependencyCount: UInt16 = records.littleEndian(at: base + 32)
        return BakedFormat.Record(
            dataOffset: records.littleEndian(at: base), dataLength: records.littleEndian(at: base + 8), sourceSize: 0,
            dataChecksum: records.littleEndian(at: base + 16), sourceChecksum: 0, name: 0..<0, sourcePath: 0..<0,
            width: records.littleEndian(at: base + 20), height: records.littleEndian(at: base + 24),
            dependencies: dependencyStart..<dependencyStart + UInt32(dependencyCount), kind: records[base + 34],
            bits: .init(rawValue: records[base + 35]))
    }
}
