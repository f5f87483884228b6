import Foundation
import Preload

/// How a baked pack holds a bitmap font: a 32-byte header, the font's metrics and pages as JSON,
/// then its glyphs and kerning pairs as fixed-size little-endian records, read without a parse (a
/// JSON table of 6,000 glyphs took 35 ms to decode, more than the font's pages). The pages are
/// other entries, named by entry number, as an atlas's are. The layout is in
/// docs/bake-format.md ("Font").
public enum BakedFont {
    /// The header's first four bytes.
    static let magic = Array("PFNT".utf8)
    /// The header's size.
    static let headerSize = 32
    /// A glyph's record: id (64 bits), then x, y, width, height, x offset, y offset, x advance,
    /// page and channels (32 bits each).
    static let glyphSize = 44
    /// A kerning pair's record: first and second (64 bits each), amount (32 bits).
    static let pairSize = 20

    /// The font's description beside its tables: what the JSON holds.
    public struct Header: Codable, Sendable, Equatable {
        /// A page: the entry holding its texture, and the page's path as the font named it.
        public struct Page: Codable, Sendable, Equatable {
            /// The position in the pack's index of the entry holding the page's texture.
            public var entry: Int
            /// The page's path as the font named it (`FontPage.path`).
            public var path: String
        }

        /// `BitmapFont.Format`'s raw value.
        public var format: String
        /// The font's metrics, field for field.
        public var metrics: FontMetrics
        /// The pages, by index.
        public var pages: [Page]
    }

    /// The entry's bytes for `font`, its pages in the entries `pageEntries` (in page order).
    public static func encode(_ font: BitmapFont, pageEntries: [Int]) throws -> AssetBytes {
        let header = Header(
            format: font.format.rawValue, metrics: font.metrics, pages: zip(font.pages, pageEntries).map { Header.Page(entry: $1, path: $0.path) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // the same font bakes to the same bytes
        let json = [UInt8](try encoder.encode(header))
        let glyphs = font.glyphs + (font.missingGlyph.map { [$0] } ?? [])
        var bytes = magic + [1, 0, 0, 0]  // version 1
        bytes.appendLittleEndian(UInt32(json.count))
        bytes.appendLittleEndian(UInt32(font.glyphs.count))
        bytes.appendLittleEndian(UInt32(font.missingGlyph == nil ? 0 : 1))
        bytes.appendLittleEndian(UInt32(font.kerningPairs.count))
        bytes += [UInt8](repeating: 0, count: headerSize - bytes.count)
        bytes += json
        bytes += [UInt8](repeating: 0, count: (4 - json.count % 4) % 4)
        bytes.reserveCapacity(bytes.count + glyphs.count * glyphSize + font.kerningPairs.count * pairSize)
        for glyph in glyphs {
            bytes.appendLittleEndian(UInt64(bitPattern: glyph.id))
            for value in [glyph.x, glyph.y, glyph.width, glyph.height, glyph.xOffset, glyph.yOffset, glyph.xAdvance, glyph.page] {
                bytes.appendLittleEndian(UInt32(bitPattern: Int32(clamping: value)))
            }
            bytes.appendLittleEndian(UInt32(glyph.channels.rawValue))
        }
        for pair in font.kerningPairs {
            bytes.appendLittleEndian(UInt64(bitPattern: pair.first))
            bytes.appendLittleEndian(UInt64(bitPattern: pair.second))
            bytes.appendLittleEndian(UInt32(bitPattern: Int32(clamping: pair.amount)))
        }
        return AssetBytes(bytes)
    }

    /// The header of a font entry, `bytes` (already checksummed): its pages, before they load.
    static func header(of bytes: UnsafeRawBufferPointer, malformed: (String) -> any Error) throws -> (header: Header, layout: Layout) {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic else { throw malformed("not a font entry (no PFNT header)") }
        guard bytes[4] == 1 else { throw malformed("font entry version \(bytes[4]); this reader reads version 1") }
        let json = Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian)
        let glyphs = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        let missing = Int(bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
        let pairs = Int(bytes.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian)
        let tables = headerSize + json + (4 - json % 4) % 4
        guard missing <= 1, bytes.count == tables + (glyphs + missing) * glyphSize + pairs * pairSize else {
            throw malformed("a font entry of \(bytes.count) bytes does not hold what its header counts")
        }
        do {
            let header = try JSONDecoder().decode(Header.self, from: Data(bytes[headerSize..<headerSize + json]))
            return (header, Layout(tables: tables, glyphs: glyphs, hasMissingGlyph: missing == 1, pairs: pairs))
        } catch {
            throw malformed("its font header does not read: \(error)")
        }
    }

    /// Where a font entry's tables are.
    struct Layout {
        var tables: Int
        var glyphs: Int
        var hasMissingGlyph: Bool
        var pairs: Int
    }

    /// The font in `bytes` (a font entry, already checksummed, whose ``header(of:malformed:)`` gave
    /// `header` and `layout`), with `pages` (the page textures, in page order); throws why the
    /// entry cannot be one (a glyph not inside its page, ...).
    static func font(
        in bytes: UnsafeRawBufferPointer, header: Header, layout: Layout, pages: [FontPage], malformed: (String) -> any Error
    ) throws -> BitmapFont {
        guard let format = BitmapFont.Format(rawValue: header.format) else { throw malformed("unknown font format '\(header.format)'") }
        var glyphs: [BitmapGlyph] = []
        glyphs.reserveCapacity(layout.glyphs)
        for index in 0..<layout.glyphs + (layout.hasMissingGlyph ? 1 : 0) {
            let at = layout.tables + index * glyphSize
            let id = Int64(bitPattern: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian)
            let field = { (n: Int) in Int(Int32(bitPattern: bytes.loadUnaligned(fromByteOffset: at + 8 + 4 * n, as: UInt32.self).littleEndian)) }
            let glyph = BitmapGlyph(
                id: id, x: field(0), y: field(1), width: field(2), height: field(3), xOffset: field(4), yOffset: field(5), xAdvance: field(6),
                page: field(7), channels: FontChannels(rawValue: UInt8(truncatingIfNeeded: field(8))))
            guard glyph.width >= 0, glyph.height >= 0 else { throw malformed("font glyph \(glyph.id) has a negative size") }
            if glyph.width > 0 && glyph.height > 0 {
                guard pages.indices.contains(glyph.page) else {
                    throw malformed("font glyph \(glyph.id) is on page index \(glyph.page), and the font has \(pages.count) pages")
                }
                let page = pages[glyph.page].texture
                guard glyph.x >= 0, glyph.y >= 0, glyph.x <= page.width - glyph.width, glyph.y <= page.height - glyph.height else {
                    throw malformed("font glyph \(glyph.id) lies outside its page")
                }
            }
            glyphs.append(glyph)
        }
        let missing = layout.hasMissingGlyph ? glyphs.removeLast() : nil
        let base = layout.tables + glyphs.count * glyphSize + (missing == nil ? 0 : glyphSize)
        let pairs = (0..<layout.pairs).map { index in
            let at = base + index * pairSize
            return KerningPair(
                first: Int64(bitPattern: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian),
                second: Int64(bitPattern: bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self).littleEndian),
                amount: Int(Int32(bitPattern: bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt32.self).littleEndian)))
        }
        return BitmapFont(format: format, metrics: header.metrics, pages: pages, glyphs: glyphs, missingGlyph: missing, kerningPairs: pairs)
    }
}
