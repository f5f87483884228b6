import Preload

/// Where a zip archive's central directory is, from its end records (APPNOTE 6.3, 4.3.14-16):
/// the end of central directory record, found by scanning back over the archive comment, and
/// the zip64 record it points to when the archive needs 64-bit sizes, offsets or counts.
struct ZipEndRecord: Equatable {
    static let signature: UInt32 = 0x0605_4B50
    static let zip64Signature: UInt32 = 0x0606_4B50
    static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    /// The fixed part of the end record; a comment of up to 65535 bytes follows it.
    static let size = 22

    var entryCount: UInt64
    var directoryOffset: UInt64
    var directorySize: UInt64
    /// Bytes in front of the archive (a self-extracting stub), added to every offset it records.
    var bias: UInt64

    /// Reads the end records of the zip archive open in `file`, `fileSize` bytes long.
    static func read(from file: OpenFile, fileSize: UInt64) throws -> ZipEndRecord {
        let tailLength = Int(min(fileSize, UInt64(size + Int(UInt16.max))))
        let tailStart = fileSize - UInt64(tailLength)
        let tail = try file.bytes(at: tailStart, count: tailLength)
        guard tail.count == tailLength else { throw PackError.truncated("the file shrank while being read") }
        guard let position = findEnd(in: tail) else {
            throw PackError.corruptIndex("no end of central directory record (truncated zip?)")
        }
        var reader = ByteReader(tail, at: position + 4)
        let what = "the end of central directory record"
        let disk = try reader.littleEndian(UInt16.self, what), directoryDisk = try reader.littleEndian(UInt16.self, what)
        let entriesOnDisk = try reader.littleEndian(UInt16.self, what), entries = try reader.littleEndian(UInt16.self, what)
        let directorySize = try reader.littleEndian(UInt32.self, what), directoryOffset = try reader.littleEndian(UInt32.self, what)
        let endOffset = tailStart + UInt64(position)
        var record = ZipEndRecord(
            entryCount: UInt64(entries), directoryOffset: UInt64(directoryOffset), directorySize: UInt64(directorySize), bias: 0)
        var directoryEnd = endOffset
        let needsZip64 = entries == .max || entriesOnDisk == .max || directorySize == .max || directoryOffset == .max
        if needsZip64, let zip64 = try readZip64(from: file, endOffset: endOffset) {
            record = zip64.record
            directoryEnd = zip64.offset
        } else if disk != 0 || directoryDisk != 0 || entries != entriesOnDisk {
            throw PackError.unsupported("split (multi-volume) zip archives are not read")
        }
        guard record.directorySize <= directoryEnd, record.directoryOffset <= directoryEnd - record.directorySize else {
            throw PackError.truncated("the central directory lies outside the file")
        }
        record.bias = directoryEnd - record.directorySize - record.directoryOffset
        guard record.entryCount <= record.directorySize / 46 else {
            throw PackError.corruptIndex("\(record.entryCount) entries cannot fit in a \(record.directorySize)-byte central directory")
        }
        return record
    }

    /// The position of the last end record in `tail` whose comment length fits the bytes after it.
    private static func findEnd(in tail: [UInt8]) -> Int? {
        guard tail.count >= size else { return nil }
        var position = tail.count - size
        while position >= 0 {
            if tail[position] == 0x50, tail[position + 1] == 0x4B, tail[position + 2] == 0x05, tail[position + 3] == 0x06 {
                let commentLength = Int(tail[position + 20]) | Int(tail[position + 21]) << 8
                if position + size + commentLength <= tail.count { return position }
            }
            position -= 1
        }
        return nil
    }

    /// The zip64 end record, through the locator just before the end record; `nil` when there is
    /// no locator (a 32-bit archive that happens to hold a field at its maximum).
    private static func readZip64(from file: OpenFile, endOffset: UInt64) throws -> (record: ZipEndRecord, offset: UInt64)? {
        guard endOffset >= 20 else { return nil }
        let locator = try file.bytes(at: endOffset - 20, count: 20)
        var reader = ByteReader(locator)
        let what = "the zip64 end of central directory locator"
        guard locator.count == 20, try reader.littleEndian(UInt32.self, what) == zip64LocatorSignature else { return nil }
        let disk = try reader.littleEndian(UInt32.self, what), offset = try reader.littleEndian(UInt64.self, what)
        let disks = try reader.littleEndian(UInt32.self, what)
        guard disk == 0, disks <= 1 else { throw PackError.unsupported("split (multi-volume) zip archives are not read") }
        // The locator records the record's offset without any prepended stub: look there, then
        // right before the locator.
        let fixedSize: UInt64 = 56
        for candidate in [offset, endOffset >= 20 + fixedSize ? endOffset - 20 - fixedSize : offset] {
            let bytes = try file.bytes(at: candidate, count: Int(fixedSize))
            var reader = ByteReader(bytes)
            let what = "the zip64 end of central directory record"
            guard bytes.count == Int(fixedSize), try reader.littleEndian(UInt32.self, what) == zip64Signature else { continue }
            try reader.skip(12, what)  // record size, versions
            let recordDisk = try reader.littleEndian(UInt32.self, what), directoryDisk = try reader.littleEndian(UInt32.self, what)
            let entriesOnDisk = try reader.littleEndian(UInt64.self, what), entries = try reader.littleEndian(UInt64.self, what)
            guard recordDisk == 0, directoryDisk == 0, entries == entriesOnDisk else {
                throw PackError.unsupported("split (multi-volume) zip archives are not read")
            }
            let directorySize = try reader.littleEndian(UInt64.self, what), directoryOffset = try reader.littleEndian(UInt64.self, what)
            return (ZipEndRecord(entryCount: entries, directoryOffset: directoryOffset, directorySize: directorySize, bias: 0), candidate)
        }
        throw PackError.corruptIndex("the zip64 end of central directory record is missing")
    }
}
