import Preload

/// Opening `.pak` files: the header, then the index, both checked.
package enum PakFile {
    package static func index(at path: String) throws -> PackIndex {
        let size = try FileFacts.of(path: path).size
        let header = try PackFormat.Header.decode(try AssetFiles.local.prefix(path, count: PackFormat.headerSize), fileSize: UInt64(size))
        let entry = PackIndex.Entry(
            name: "index", offset: header.indexOffset, storedSize: header.indexSize, rawSize: header.indexSize, method: .stored, crc32: nil)
        let bytes = try EntryReader.read(entry, from: path, limits: PackLimits(maxEntryBytes: Int(header.indexSize) + 1))
        return PackIndex(format: .pak, entries: try PackFormat.decodeIndex(bytes.array, header: header))
    }
}
