import Preload

/// The `.pak` layout (specified in docs/pack-format.md): a 40-byte header, the entries' data,
/// then the index. All integers are little-endian.
package enum PackFormat {
    /// `PRLPAK` then CR LF: a text-mode transfer that mangles line ends breaks the magic.
    package static let magic: [UInt8] = Array("PRLPAK\r\n".utf8)
    package static let version: UInt16 = 1
    package static let headerSize = 40

    /// The header: where the index is, and checksums for it and for the header itself.
    package struct Header: Equatable {
        package var entryCount: UInt32
        package var indexOffset: UInt64
        package var indexSize: UInt64
        package var indexCRC: UInt32

        package init(entryCount: UInt32, indexOffset: UInt64, indexSize: UInt64, indexCRC: UInt32) {
            self.entryCount = entryCount
            self.indexOffset = indexOffset
            self.indexSize = indexSize
            self.indexCRC = indexCRC
        }

        package func encoded() -> [UInt8] {
            var bytes = magic
            bytes.appendLittleEndian(PackFormat.version)
            bytes.appendLittleEndian(UInt16(0))  // flags: none defined
            bytes.appendLittleEndian(entryCount)
            bytes.appendLittleEndian(indexOffset)
            bytes.appendLittleEndian(indexSize)
            bytes.appendLittleEndian(indexCRC)
            bytes.appendLittleEndian(CRC32.checksum(bytes))
            return bytes
        }

        static func decode(_ bytes: [UInt8], fileSize: UInt64) throws(PackError) -> Header {
            guard bytes.count >= 8, Array(bytes.prefix(8)) == magic else { throw .notAPack }
            guard bytes.count >= headerSize else { throw .truncated("the file ends inside the header") }
            let reader = ByteReader(bytes), what = "the pack's header"
            let (version, flags, header, checksum): (UInt16, UInt16, Header, UInt32)
            do {
                version = try reader.littleEndian(at: 8, what)
                flags = try reader.littleEndian(at: 10, what)
                header = Header(
                    entryCount: try reader.littleEndian(at: 12, what), indexOffset: try reader.littleEndian(at: 16, what),
                    indexSize: try reader.littleEndian(at: 24, what), indexCRC: try reader.littleEndian(at: 32, what))
                checksum = try reader.littleEndian(at: 36, what)
            } catch { throw .truncated(error.description) }
            guard version == PackFormat.version else { throw .unsupported("version \(version); this reader knows version \(PackFormat.version)") }
            guard checksum == CRC32.checksum(Array(bytes[0..<36])) else { throw .corruptHeader("header checksum mismatch") }
            guard flags == 0 else { throw .unsupported("header flags \(flags)") }
            guard header.indexOffset >= UInt64(headerSize), header.indexOffset <= fileSize,
                header.indexSize <= fileSize - header.indexOffset
            else {
                // (Compared without adding: a hostile size would overflow the sum.)
                throw header.indexOffset >= UInt64(headerSize) && header.indexOffset <= fileSize
                    ? .truncated("the index ends past the end of the file") : .corruptHeader("index position out of range")
            }
            return header
        }
    }

    /// The index's bytes for `entries` (already sorted by name).
    package static func encodeIndex(_ entries: [PackIndex.Entry]) -> [UInt8] {
        var bytes: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            bytes.appendLittleEndian(UInt16(name.count))
            bytes += name
            bytes.appendLittleEndian(entry.offset)
            bytes.appendLittleEndian(entry.storedSize)
            bytes.appendLittleEndian(entry.rawSize ?? 0)
            bytes.append(entry.method == .stored ? 0 : 1)
            bytes.appendLittleEndian(entry.crc32 ?? 0)
        }
        return bytes
    }

    /// The entries in `bytes`, checked: names valid, sorted and unique; data inside the file's
    /// data area; stored entries as large as they are raw.
    static func decodeIndex(_ bytes: [UInt8], header: Header) throws(PackError) -> [PackIndex.Entry] {
        guard CRC32.checksum(bytes) == header.indexCRC else { throw .corruptIndex("index checksum mismatch") }
        var reader = ByteReader(bytes)
        var entries: [PackIndex.Entry] = []
        entries.reserveCapacity(Int(min(header.entryCount, 1 << 20)))
        for number in 0..<header.entryCount {
            guard reader.remaining >= 2 else { throw .corruptIndex("entry \(number + 1) of \(header.entryCount) is missing") }
            let (name, offset, stored, raw, method, crc): (String?, UInt64, UInt64, UInt64, UInt8, UInt32)
            do throws(TruncatedBytes) {
                let what = "entry \(number + 1)"
                let length = Int(try reader.littleEndian(UInt16.self, what))
                try reader.require(length + 29, at: reader.offset, what)  // the name and the fixed fields
                name = length > 0 ? String(validating: try reader.bytes(length, what), as: UTF8.self) : nil
                offset = try reader.littleEndian(UInt64.self, what)
                stored = try reader.littleEndian(UInt64.self, what)
                raw = try reader.littleEndian(UInt64.self, what)
                method = try reader.littleEndian(UInt8.self, what)
                crc = try reader.littleEndian(UInt32.self, what)
            } catch {
                throw .corruptIndex("entry \(number + 1) is cut short")
            }
            guard let name, PackEntryName.isValid(name) else {
                throw .corruptIndex("entry \(number + 1) has an invalid name")
            }
            guard method <= 1 else { throw .corruptIndex("entry '\(name)' uses unknown method \(method)") }
            guard offset >= UInt64(headerSize), offset <= header.indexOffset, stored <= header.indexOffset - offset else {
                throw .corruptIndex("entry '\(name)' points outside the data area")
            }
            guard method == 1 || stored == raw else { throw .corruptIndex("stored entry '\(name)' has different sizes") }
            if let previous = entries.last, !(Array(previous.name.utf8).lexicographicallyPrecedes(Array(name.utf8))) {
                throw .corruptIndex("entries '\(previous.name)' and '\(name)' are out of order or repeated")
            }
            entries.append(
                PackIndex.Entry(
                    name: name, offset: offset, storedSize: stored, rawSize: raw, method: method == 0 ? .stored : .zlib, crc32: crc))
        }
        guard reader.remaining == 0 else { throw .corruptIndex("\(reader.remaining) unexpected bytes after the last entry") }
        return entries
    }
}

/// Names inside a pack: relative paths with `/` separators, no empty, `.` or `..` component, no
/// backslash or NUL. Extracting such a name can never leave the target folder.
package enum PackEntryName {
    /// Whether `name` may be written into a `.pak` (the strict form: no `.` or empty component).
    package static func isValid(_ name: String) -> Bool {
        guard escapeReason(name) == nil, name.utf8.count <= Int(UInt16.max) else { return false }
        return name.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != "" && $0 != "." }
    }

    /// Why `name`, read from an archive, would reach outside it, or `nil` when it stays inside:
    /// an absolute path, a drive letter, a `..` component, a backslash (a separator on Windows,
    /// so `..\x` climbs there), a NUL. As Go's archive/zip and Info-ZIP, such entries are
    /// refused by name wherever they are met; `./x` and `a//b` stay inside and are fine.
    package static func escapeReason(_ name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.hasPrefix("/") { return "it is an absolute path" }
        if name.utf8.contains(0) { return "it contains a NUL byte" }
        if name.contains("\\") { return "it contains a backslash, a path separator on Windows" }
        let components = name.split(separator: "/")
        if name.utf8.count >= 2, name.first?.isASCII == true, name.first?.isLetter == true, name.dropFirst().first == ":" {
            return "it starts with the drive \(name.prefix(2))"
        }
        if components.contains("..") { return "it has a '..' component" }
        return nil
    }
}
