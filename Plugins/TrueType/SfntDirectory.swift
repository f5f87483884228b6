import Preload

/// The table directory at the start of a TrueType or OpenType font (and each face's in a
/// collection), read only to see that the file holds every table it lists: FreeType drops a table
/// that reaches past the file's end and loads the font without it (its kerning, its names), so a
/// cut file would load with parts silently missing.
enum SfntDirectory {
    /// Where the file ends before its directory or one of the tables face `face` lists does, in
    /// words; `nil` when it holds them all, or is not an sfnt font or collection (or lacks that
    /// face): FreeType names what is wrong with those.
    static func truncation(_ bytes: UnsafeRawBufferPointer, face: Int) -> String? {
        let reader = ByteReader(bytes)
        func read32(_ offset: Int) -> Int? { try? reader.bigEndian(at: offset, byteCount: 4, "the table directory") }
        guard let tag = read32(0) else { return nil }
        var directory = 0
        if tag == 0x7474_6366 {  // 'ttcf': a collection, one offset per face
            guard let count = read32(8) else { return "the collection's header is cut short (\(bytes.count) bytes)" }
            guard face < count else { return nil }
            guard let offset = read32(12 + 4 * face) else { return "the collection's list of \(count) faces is cut short (\(bytes.count) bytes)" }
            directory = offset
        } else if ![0x0001_0000, 0x4F54_544F, 0x7472_7565].contains(tag) {  // TrueType, 'OTTO', 'true'
            return nil
        }
        guard let numberOfTables = read32(directory + 4).map({ $0 >> 16 }) else {
            return "the file ends at byte \(bytes.count), inside the table directory at byte \(directory)"
        }
        let end = directory + 12 + 16 * numberOfTables
        guard end <= bytes.count else {
            return "the table directory lists \(numberOfTables) tables and ends at byte \(end); the file ends at byte \(bytes.count)"
        }
        for table in 0..<numberOfTables {
            let record = directory + 12 + 16 * table
            let offset = read32(record + 8)!, length = read32(record + 12)!
            if offset + length > bytes.count {
                let name = String(decoding: bytes[record..<record + 4], as: UTF8.self)
                return "table '\(name)' ends at byte \(offset + length); the file ends at byte \(bytes.count)"
            }
        }
        return nil
    }
}
