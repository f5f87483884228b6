import Preload

/// BMFont's binary form, version 3: `BMF`, the version byte, then blocks of a type byte and a
/// little-endian 32-bit length: 1 info, 2 common, 3 page names (each NUL-terminated), 4 chars
/// (20 bytes each), 5 kerning pairs (10 bytes each). Unknown block types are skipped.
enum BMFontBinaryFormat {
    static let signature: [UInt8] = [0x42, 0x4D, 0x46]  // "BMF"

    static func matches(_ header: [UInt8]) -> Bool { header.starts(with: signature) }

    static func description(_ data: [UInt8], file: String, resolve: (String) throws -> String) throws -> BitmapFontDescription {
        func malformed(_ detail: String) -> BitmapFontError { .malformed(file: file, detail: detail) }
        guard data.count >= 4, matches(data) else { throw BitmapFontError.notAFont(file: file, detail: "no 'BMF' signature") }
        guard data[3] == 3 else {
            throw BitmapFontError.unsupported(file: file, detail: "binary version \(data[3]); this loader reads version 3 (BMFont 1.10 and later)")
        }
        var metrics = FontMetrics()
        var pageNames: [String] = []
        var builder = GlyphTableBuilder()
        var sawCommon = false
        var offset = 4
        while offset < data.count {
            guard data.count - offset >= 5 else { throw malformed("a block header is cut short at byte \(offset)") }
            let type = data[offset]
            let length = Int(try ByteReader(data).littleEndian(at: offset + 1, as: UInt32.self, "a block header"))
            let start = offset + 5
            guard length <= data.count - start else {
                throw malformed("block \(type) at byte \(offset) declares \(length) bytes; \(data.count - start) remain")
            }
            let block = BlockReader(bytes: data[start..<start + length], type: type, file: file)
            switch type {
            case 1:
                try block.need(14)
                metrics.size = try Int(block.int16(0))
                let flags = try block.uint8(2)
                metrics.isSmooth = flags & 1 != 0
                metrics.isUnicode = flags & 2 != 0
                metrics.isItalic = flags & 4 != 0
                metrics.isBold = flags & 8 != 0
                // The text and XML forms write `charset=""` for a Unicode font, a name otherwise.
                metrics.charset = try metrics.isUnicode ? "" : String(block.uint8(3))
                metrics.stretchHeight = try Int(block.uint16(4))
                metrics.supersampling = try Int(block.uint8(6))
                metrics.padding = try (7..<11).map { Int(try block.uint8($0)) }
                metrics.spacing = try (11..<13).map { Int(try block.uint8($0)) }
                metrics.outline = try Int(block.uint8(13))
                metrics.face = block.strings(from: 14).first ?? ""
            case 2:
                try block.need(15)
                sawCommon = true
                metrics.lineHeight = try Int(block.uint16(0))
                metrics.base = try Int(block.uint16(2))
                metrics.pageWidth = try Int(block.uint16(4))
                metrics.pageHeight = try Int(block.uint16(6))
                metrics.isPacked = try block.uint8(10) & 0x80 != 0
                metrics.channelContents = try (11..<15).map { at in
                    let value = try block.uint8(at)
                    guard let content = FontMetrics.ChannelContent(rawValue: Int(value)) else {
                        throw malformed("block 2: channel content \(value) is not 0 to 4")
                    }
                    return content
                }
            case 3:
                pageNames = block.strings(from: 0)
            case 4:
                guard length % 20 == 0 else { throw malformed("block 4 is \(length) bytes, not a multiple of 20") }
                for at in stride(from: 0, to: length, by: 20) {
                    try builder.add(
                        BitmapGlyph(
                            id: Int64(Int32(bitPattern: block.uint32(at))), x: Int(block.uint16(at + 4)), y: Int(block.uint16(at + 6)),
                            width: Int(block.uint16(at + 8)), height: Int(block.uint16(at + 10)), xOffset: Int(block.int16(at + 12)),
                            yOffset: Int(block.int16(at + 14)), xAdvance: Int(block.int16(at + 16)), page: Int(block.uint8(at + 18)),
                            channels: FontChannels(rawValue: block.uint8(at + 19))))
                }
            case 5:
                guard length % 10 == 0 else { throw malformed("block 5 is \(length) bytes, not a multiple of 10") }
                for at in stride(from: 0, to: length, by: 10) {
                    try builder.add(
                        KerningPair(
                            first: Int64(block.uint32(at)), second: Int64(block.uint32(at + 4)), amount: Int(block.int16(at + 8))))
                }
            default:
                break
            }
            offset = start + length
        }
        guard sawCommon else { throw malformed("no common block (2: the line height and base)") }
        let pages = try pageNames.map { BitmapFontDescription.Page(path: try resolve($0), nameAsWritten: $0) }
        return BitmapFontDescription(
            format: .binary, metrics: metrics, pages: pages, glyphs: builder.glyphs, missingGlyph: builder.missingGlyph,
            kerningPairs: builder.kerningPairs, warnings: builder.warnings)
    }

    /// Little-endian fields of one block, at offsets from its start; a field past the block's
    /// end is ``BitmapFontError/malformed(file:detail:)`` naming the block.
    private struct BlockReader {
        let bytes: ArraySlice<UInt8>
        let type: UInt8
        let file: String
        private var reader: ByteReader<ArraySlice<UInt8>> { ByteReader(bytes) }

        func need(_ count: Int) throws {
            guard bytes.count >= count else {
                throw BitmapFontError.malformed(file: file, detail: "block \(type) is \(bytes.count) bytes, shorter than its \(count)")
            }
        }

        func uint8(_ at: Int) throws(BitmapFontError) -> UInt8 { try field(at) }
        func uint16(_ at: Int) throws(BitmapFontError) -> UInt16 { try field(at) }
        func int16(_ at: Int) throws(BitmapFontError) -> Int16 { try field(at) }
        func uint32(_ at: Int) throws(BitmapFontError) -> UInt32 { try field(at) }

        private func field<T: FixedWidthInteger>(_ at: Int) throws(BitmapFontError) -> T {
            do { return try reader.littleEndian(at: at, as: T.self, "block \(type)") } catch {
                throw .malformed(file: file, detail: error.description)
            }
        }

        /// The NUL-terminated strings from `at` to the block's end (a last one without its NUL
        /// too).
        func strings(from at: Int) -> [String] {
            guard at < bytes.count else { return [] }
            return bytes[(bytes.startIndex + at)...].split(separator: 0, omittingEmptySubsequences: false).dropLast(bytes.last == 0 ? 1 : 0)
                .map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
