import Preload

/// Single-file gzip (`.gz`, RFC 1952): one entry, named by the header's original file name when
/// it has one, else by the file's own name without `.gz`. Its size is only known once inflated
/// (the trailer keeps it modulo 4 GiB), and zlib checks the CRC-32 and size in the trailer.
/// Members concatenated one after another (`cat a.gz b.gz`) read as one entry, as `gunzip` does.
package enum GzipFile {
    /// The header flags the file name depends on (FEXTRA comes before FNAME; FCOMMENT and FHCRC after it).
    static let flagExtra: UInt8 = 0x04, flagName: UInt8 = 0x08

    package static func index(at path: String) throws -> PackIndex {
        let size = UInt64(try FileFacts.of(path: path).size)
        let header = try AssetFiles.local.prefix(path, count: 4096)
        guard header.count >= 18 else { throw PackError.truncated("the file is too short for a gzip header and trailer") }
        guard header[0] == 0x1F, header[1] == 0x8B else { throw PackError.notAPack }
        guard header[2] == 8 else { throw PackError.unsupported("gzip compression method \(header[2]) (only deflate exists)") }
        guard header[3] & 0xE0 == 0 else { throw PackError.corruptHeader("reserved gzip flags are set") }
        let name = originalName(in: header) ?? defaultName(for: path)
        return PackIndex(
            format: .gzip,
            entries: [
                PackIndex.Entry(name: name, offset: 0, storedSize: size, rawSize: nil, method: .gzip, crc32: nil)
            ])
    }

    /// The header's FNAME field, reduced to a safe file name; `nil` when absent or unusable.
    static func originalName(in header: [UInt8]) -> String? {
        let flags = header[3]
        guard flags & flagName != 0 else { return nil }
        var position = 10
        if flags & flagExtra != 0 {
            guard header.count >= 12 else { return nil }
            position += 2 + (Int(header[10]) | Int(header[11]) << 8)
        }
        guard position < header.count, let end = header[position...].firstIndex(of: 0) else { return nil }
        // ISO 8859-1 by the RFC; UTF-8 in practice when it validates.
        let bytes = header[position..<end]
        let text = String(validating: bytes, as: UTF8.self) ?? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        let base = text.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return PackEntryName.isValid(base) ? base : nil
    }

    /// `level.json.gz` → `level.json`, `maps.tgz` → `maps.tar`, `x.svgz` → `x.svg`.
    static func defaultName(for path: String) -> String {
        let file = AssetPath.fileName(of: path)
        let lowered = file.lowercased()
        for (suffix, replacement) in [(".gz", ""), (".tgz", ".tar"), (".svgz", ".svg"), (".z", "")] where lowered.hasSuffix(suffix) {
            let stem = String(file.dropLast(suffix.count))
            if !stem.isEmpty, PackEntryName.isValid(stem + replacement) { return stem + replacement }
        }
        return PackEntryName.isValid(file + ".raw") ? file + ".raw" : "data"
    }
}
