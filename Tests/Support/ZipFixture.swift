import CPreloadZlib

/// Writes zip archives of stored entries byte by byte, with any names at all: what a hostile or
/// careless tool writes (`../x`, `/x`, `C:x`, `..\x`), which real zip tools refuse to make.
public enum ZipFixture {
    /// A zip archive of `entries`, stored without compression, in order.
    public static func stored(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var archive: [UInt8] = [], directory: [UInt8] = []
        for (name, bytes) in entries {
            let nameBytes = Array(name.utf8)
            let crc = bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let offset = UInt32(archive.count)
            // Local header: signature, version 2.0, flags (UTF-8), method 0, time, date, CRC, sizes, name and extra lengths.
            archive += le32(0x0403_4B50) + le16(20) + le16(0x800) + le16(0) + le16(0) + le16(0)
            archive += le32(crc) + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count)) + le16(UInt16(nameBytes.count)) + le16(0)
            archive += nameBytes + bytes
            // Central header: also made-by, comment length, disk, attributes and the local header's offset.
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0x800) + le16(0) + le16(0) + le16(0)
            directory += le32(crc) + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count)) + le16(UInt16(nameBytes.count))
            directory += le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + nameBytes
        }
        let directoryOffset = UInt32(archive.count)
        archive += directory
        archive += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        archive += le32(UInt32(directory.count)) + le32(directoryOffset) + le16(0)
        return archive
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
}
