import Preload

/// Zip archives, read through their central directory (so entries written with data descriptors
/// have their sizes and CRC), with zip64 sizes and offsets where the archive uses them. Stored
/// and deflate entries load; entries the archive lists but that cannot be read (encrypted, other
/// compression methods, symbolic links, overlapping data) stay in the index with their
/// ``PackIndex/Entry/problem``, so the rest of the archive still loads. Folders are left out.
package enum ZipFile {
    static let centralSignature: UInt32 = 0x0201_4B50
    static let localSignature: UInt32 = 0x0403_4B50
    static let centralHeaderSize = 46
    static let localHeaderSize = 30

    package static func index(at path: String) throws -> PackIndex {
        let fileSize = UInt64(try FileFacts.of(path: path).size)
        let file = try OpenFile(path: path)
        let end = try ZipEndRecord.read(from: file, fileSize: fileSize)
        let directory = try file.bytes(at: end.directoryOffset + end.bias, count: Int(end.directorySize))
        guard directory.count == Int(end.directorySize) else { throw PackError.truncated("the central directory ends early") }
        var entries = try centralEntries(in: directory, count: end.entryCount, bias: end.bias)
        try locateData(of: &entries, in: file, fileSize: fileSize)
        return PackIndex(format: .zip, entries: entries)
    }

    /// The entries the central directory lists, with `offset` still at each local header.
    private static func centralEntries(in directory: [UInt8], count: UInt64, bias: UInt64) throws -> [PackIndex.Entry] {
        var entries: [PackIndex.Entry] = []
        entries.reserveCapacity(Int(count))
        var position = 0
        for number in 0..<count {
            guard directory.count - position >= centralHeaderSize else {
                throw PackError.corruptIndex("central directory entry \(number + 1) of \(count) is missing")
            }
            var reader = ByteReader(directory, at: position)
            let what = "central directory entry \(number + 1)"
            guard try reader.littleEndian(UInt32.self, what) == centralSignature else {
                throw PackError.corruptIndex("central directory entry \(number + 1) has a bad signature")
            }
            let madeBy = try reader.littleEndian(UInt16.self, what)
            try reader.skip(2, what)  // version needed
            let flags = try reader.littleEndian(UInt16.self, what), method = try reader.littleEndian(UInt16.self, what)
            try reader.skip(4, what)  // time, date
            let crc = try reader.littleEndian(UInt32.self, what)
            var stored = UInt64(try reader.littleEndian(UInt32.self, what)), raw = UInt64(try reader.littleEndian(UInt32.self, what))
            let nameLength = Int(try reader.littleEndian(UInt16.self, what)), extraLength = Int(try reader.littleEndian(UInt16.self, what))
            let commentLength = Int(try reader.littleEndian(UInt16.self, what))
            try reader.skip(4, what)  // disk, internal attributes
            let attributes = try reader.littleEndian(UInt32.self, what)
            var offset = UInt64(try reader.littleEndian(UInt32.self, what))
            let recordEnd = position + centralHeaderSize + nameLength + extraLength + commentLength
            guard recordEnd <= directory.count else { throw PackError.corruptIndex("central directory entry \(number + 1) is cut short") }
            let name = ZipName.decode(try reader.bytes(nameLength, what), isUTF8: flags & 0x800 != 0)
            let extra = ZipExtraFields(try reader.bytes(extraLength, what))
            position = recordEnd
            if name.hasSuffix("/") { continue }  // a folder
            if let zip64 = extra.zip64(raw: raw == 0xFFFF_FFFF, stored: stored == 0xFFFF_FFFF, offset: offset == 0xFFFF_FFFF) {
                raw = zip64.raw ?? raw
                stored = zip64.stored ?? stored
                offset = zip64.offset ?? offset
            }
            var entry = PackIndex.Entry(
                name: name, offset: offset &+ bias, storedSize: stored, rawSize: raw, method: method == 0 ? .stored : .deflate, crc32: crc)
            entry.problem = problem(of: entry, flags: flags, method: method, madeBy: madeBy, attributes: attributes)
            entries.append(entry)
        }
        return entries
    }

    /// Why an entry the directory lists cannot be loaded, if it cannot.
    private static func problem(of entry: PackIndex.Entry, flags: UInt16, method: UInt16, madeBy: UInt16, attributes: UInt32) -> PackError? {
        if flags & 0x1 != 0 || method == 99 { return .unreadableEntry(entry: entry.name, reason: "it is encrypted") }
        if madeBy >> 8 == 3, (attributes >> 16) & 0o170000 == 0o120000 {
            return .unreadableEntry(entry: entry.name, reason: "it is a symbolic link, which packs do not follow")
        }
        if method != 0 && method != 8 {
            let known: [UInt16: String] = [9: "Deflate64", 12: "bzip2", 14: "LZMA", 93: "Zstandard", 95: "xz"]
            let name = known[method].map { "\(method) (\($0))" } ?? "\(method)"
            return .unreadableEntry(entry: entry.name, reason: "compression method \(name) is not supported (stored and deflate are)")
        }
        if method == 0, entry.storedSize != entry.rawSize {
            return .corruptIndex("stored entry '\(entry.name)' has different sizes")
        }
        return nil
    }

    /// Moves each entry's offset from its local header to its data, and flags entries whose data
    /// lies outside the file or overlaps another's (the trick of overlapping zip bombs).
    private static func locateData(of entries: inout [PackIndex.Entry], in file: OpenFile, fileSize: UInt64) throws {
        var starts: [(start: UInt64, entry: Int)] = []
        for index in entries.indices where entries[index].problem == nil {
            let header = entries[index].offset
            guard header <= fileSize, fileSize - header >= UInt64(localHeaderSize) else {
                entries[index].problem = .truncated("entry '\(entries[index].name)' starts past the end of the file")
                continue
            }
            let bytes = try file.bytes(at: header, count: localHeaderSize)
            let reader = ByteReader(bytes), what = "the local header of '\(entries[index].name)'"
            guard bytes.count == localHeaderSize, try reader.littleEndian(at: 0, as: UInt32.self, what) == localSignature else {
                entries[index].problem = .corruptIndex("entry '\(entries[index].name)' has no local header where the directory says")
                continue
            }
            let variable =
                UInt64(try reader.littleEndian(at: 26, as: UInt16.self, what)) + UInt64(try reader.littleEndian(at: 28, as: UInt16.self, what))
            entries[index].offset = header + UInt64(localHeaderSize) + variable
            starts.append((header, index))
        }
        starts.sort { ($0.start, $0.entry) < ($1.start, $1.entry) }
        var reach: (end: UInt64, entry: Int)?  // the furthest any earlier entry's data goes
        for (start, index) in starts {
            if let reach, reach.end > start {
                let name = entries[index].name, other = entries[reach.entry].name
                entries[index].problem = .corruptIndex("entry '\(name)' overlaps the data of '\(other)' (a zip bomb?)")
                continue
            }
            reach = (entries[index].offset &+ entries[index].storedSize, index)
        }
    }
}

/// The extra fields of a central directory record.
struct ZipExtraFields {
    private let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The 64-bit values from the zip64 field (tag 1), which holds, in order, only the values
    /// whose 32-bit fields are at their maximum.
    func zip64(raw: Bool, stored: Bool, offset: Bool) -> (raw: UInt64?, stored: UInt64?, offset: UInt64?)? {
        guard raw || stored || offset, let field = field(tag: 0x0001) else { return nil }
        let reader = ByteReader(field)
        var values = stride(from: 0, to: field.count - 7, by: 8).compactMap { try? reader.littleEndian(at: $0, as: UInt64.self, "the zip64 field") }[
            ...]
        let rawValue = raw ? values.popFirst() : nil
        let storedValue = stored ? values.popFirst() : nil
        return (rawValue, storedValue, offset ? values.popFirst() : nil)
    }

    private func field(tag: UInt16) -> ArraySlice<UInt8>? {
        var reader = ByteReader(bytes)
        while reader.remaining >= 4 {
            guard let id = try? reader.littleEndian(UInt16.self, "an extra field's tag"),
                let length = try? reader.littleEndian(UInt16.self, "an extra field's length"),
                let field = try? reader.bytes(Int(length), "an extra field")
            else { return nil }
            if id == tag { return field }
        }
        return nil
    }
}
