/// What a ``BakedIndex`` keeps of its pack's index to make an entry when it is read: a copy of
/// the records (64 bytes an entry, parsed when read) and the entries' names one after another
/// (with where each ends), not a Swift record and string made for each entry when the pack is
/// opened (170 bytes an entry, most of what a pack of a million tiny entries held). The index's
/// other strings (source paths) are kept as ``EntryTables`` keeps them.
final class BakedIndexBytes: @unchecked Sendable {  // immutable once made; its buffer is its own
    /// The records, as the index holds them.
    let records: UnsafeRawBufferPointer
    /// The names' bytes, one after another.
    private let names: [UInt8]
    /// Where each entry's name ends in ``names`` (where the next one starts).
    private let nameEnds: [UInt32]

    /// A copy of the index's `records` and the names `names`, each ending where `nameEnds` says.
    init(records: UnsafeRawBufferPointer, names: [UInt8], nameEnds: [UInt32]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: records.count, alignment: 8)
        copy.copyMemory(from: records)
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
}
