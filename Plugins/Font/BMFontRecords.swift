#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Preload

/// One line of BMFont's text form or one element of its XML form: a tag (`info`, `common`,
/// `page`, `char`, `kerning`, ...) and its `key=value` attributes. Both forms carry the same
/// records, so one builder (``BMFontRecords/description(format:resolve:)``) reads them.
///
/// The attributes are ranges of UTF-8 bytes (of the whole file for the text form, of the
/// element's own buffer for XML), in the order written, and numbers are read from the bytes:
/// a font has thousands of `char` records, and a string and a dictionary for each of their
/// ten numbers cost more than decoding the font's pages.
struct BMFontRecord {
    var tag: String
    /// Its attributes: a range of ``BMFontRecords/fields``.
    var fields: Range<Int>
    /// The line it is on.
    var line: Int
    /// Whether it is an XML element (else a line of the text form).
    var isElement = false

    /// Where it is, for messages: `line 12`, or `element <char> on line 12` (made only for one).
    var place: String { isElement ? "element <\(tag)> on line \(line)" : "line \(line)" }
}

/// One record's attributes while the builder reads them: its key and value ranges, over the
/// bytes they point into.
struct BMFontRecordValues {
    let bytes: UnsafeBufferPointer<UInt8>
    let fields: UnsafeBufferPointer<(key: Range<Int>, value: Range<Int>)>

    /// The value of `key`, as bytes (compared by length, then `memcmp`).
    func raw(_ key: StaticString) -> UnsafeBufferPointer<UInt8>? {
        let length = key.utf8CodeUnitCount
        for field in fields where field.key.count == length {
            if memcmp(bytes.baseAddress! + field.key.lowerBound, key.utf8Start, length) == 0 {
                return UnsafeBufferPointer(rebasing: bytes[field.value])
            }
        }
        return nil
    }

    /// The value of `key`, as text.
    subscript(key: StaticString) -> String? {
        raw(key).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The records of one descriptor, turned into a ``BitmapFontDescription``. Every record's
/// attributes are ranges of one ``bytes`` (the file, for the text form; the elements' keys and
/// values one after another, for XML), listed in one ``fields``: no allocation per record.
struct BMFontRecords {
    var bytes: [UInt8] = []
    var fields: [(key: Range<Int>, value: Range<Int>)] = []
    var records: [BMFontRecord] = []
    var file: String
    /// Warnings the reader already had (none today; kept for the form's own).
    var warnings: [AssetWarning] = []

    init(file: String) { self.file = file }

    func description(format: BitmapFont.Format, resolve: (String) throws -> String) throws -> BitmapFontDescription {
        try bytes.withUnsafeBufferPointer { bytes in
            try fields.withUnsafeBufferPointer { fields in
                try description(format: format, bytes: bytes, fields: fields, resolve: resolve)
            }
        }
    }

    private func description(
        format: BitmapFont.Format, bytes: UnsafeBufferPointer<UInt8>, fields allFields: UnsafeBufferPointer<(key: Range<Int>, value: Range<Int>)>,
        resolve: (String) throws -> String
    ) throws -> BitmapFontDescription {
        var fields = Fields(file: file)
        var metrics = FontMetrics()
        var pageNames: [Int: String] = [:]
        var sawCommon = false
        var declaredChars: Int?, declaredKernings: Int?
        var builder = GlyphTableBuilder()
        for record in records {
            fields.record = record
            let values = BMFontRecordValues(bytes: bytes, fields: UnsafeBufferPointer(rebasing: allFields[record.fields]))
            switch record.tag {
            case "info":
                metrics.face = values["face"] ?? ""
                metrics.size = try fields.info("size", values, default: 0)
                metrics.isBold = try fields.info("bold", values, default: 0) != 0
                metrics.isItalic = try fields.info("italic", values, default: 0) != 0
                metrics.charset = values["charset"] ?? ""
                metrics.isUnicode = try fields.info("unicode", values, default: 1) != 0
                metrics.stretchHeight = try fields.info("stretchH", values, default: 100)
                metrics.isSmooth = try fields.info("smooth", values, default: 1) != 0
                metrics.supersampling = try fields.info("aa", values, default: 1)
                metrics.padding = try fields.ints("padding", values, count: 4) ?? [0, 0, 0, 0]
                metrics.spacing = try fields.ints("spacing", values, count: 2) ?? [0, 0]
                metrics.outline = try fields.info("outline", values, default: 0)
            case "common":
                sawCommon = true
                metrics.lineHeight = try fields.int("lineHeight", values)
                metrics.base = try fields.int("base", values)
                metrics.pageWidth = try fields.int("scaleW", values, default: 0)
                metrics.pageHeight = try fields.int("scaleH", values, default: 0)
                metrics.isPacked = try fields.int("packed", values, default: 0) != 0
                metrics.channelContents = try [StaticString("alphaChnl"), "redChnl", "greenChnl", "blueChnl"].map { key in
                    let value = try fields.int(key, values, default: 0)
                    guard let content = FontMetrics.ChannelContent(rawValue: value) else {
                        throw fields.problem("'\(key)' is \(value), not 0 to 4")
                    }
                    return content
                }
            case "page":
                let id = try fields.int("id", values)
                guard let name = values["file"] else { throw fields.problem("a page has no 'file'") }
                guard (0..<4096).contains(id) else { throw fields.problem("page id \(id) is out of range") }
                pageNames[id] = name
            case "chars":
                declaredChars = try fields.int("count", values, default: 0)
            case "char":
                let id = try fields.int64("id", values)
                let glyph = BitmapGlyph(
                    id: id, x: try fields.int("x", values), y: try fields.int("y", values),
                    width: try fields.size("width", values), height: try fields.size("height", values),
                    xOffset: try fields.int("xoffset", values), yOffset: try fields.int("yoffset", values),
                    xAdvance: try fields.int("xadvance", values), page: try fields.int("page", values, default: 0),
                    channels: FontChannels(rawValue: UInt8(truncatingIfNeeded: try fields.int("chnl", values, default: 15))))
                builder.add(glyph)
            case "kernings":
                declaredKernings = try fields.int("count", values, default: 0)
            case "kerning":
                builder.add(
                    KerningPair(
                        first: try fields.int64("first", values), second: try fields.int64("second", values),
                        amount: try fields.int("amount", values)))
            default:
                continue  // `font`, `pages`, and anything a tool adds
            }
        }
        guard sawCommon else { throw BitmapFontError.malformed(file: file, detail: "no 'common' line (the line height and base)") }
        let pages = try (0..<pageNames.count).map { id in
            guard let name = pageNames[id] else {
                throw BitmapFontError.malformed(file: file, detail: "the pages' ids are not 0 to \(pageNames.count - 1): page \(id) is missing")
            }
            return BitmapFontDescription.Page(path: try resolve(name), nameAsWritten: name)
        }
        var warnings = self.warnings + fields.warnings + builder.warnings
        if let declared = declaredChars, declared != builder.charLines {
            warnings.append(AssetWarning(.fontCountMismatch, "'chars count' says \(declared), the file has \(builder.charLines) characters"))
        }
        if let declared = declaredKernings, declared != builder.kerningLines {
            warnings.append(AssetWarning(.fontCountMismatch, "'kernings count' says \(declared), the file has \(builder.kerningLines) pairs"))
        }
        return BitmapFontDescription(
            format: format, metrics: metrics, pages: pages, glyphs: builder.glyphs, missingGlyph: builder.missingGlyph,
            kerningPairs: builder.kerningPairs, warnings: warnings)
    }

    /// Reads numbers out of a record's attribute strings, naming the place in errors.
    struct Fields {
        let file: String
        /// The record being read, named in errors and warnings.
        var record: BMFontRecord?
        private(set) var warnings: [AssetWarning] = []
        private var warnedFraction = false

        init(file: String) { self.file = file }

        var place: String { record?.place ?? "" }

        func problem(_ detail: String) -> BitmapFontError {
            .malformed(file: file, detail: "\(place): \(detail)")
        }

        mutating func int64(_ key: StaticString, _ values: BMFontRecordValues, default fallback: Int64? = nil) throws -> Int64 {
            guard let raw = values.raw(key) else {
                guard let fallback else { throw problem("'\(key)' is missing") }
                return fallback
            }
            if let value = Self.integer(raw) { return value }
            let text = String(decoding: raw, as: UTF8.self)
            // A fraction ("12.5"): its whole part, as Phaser's parseInt reads it.
            if let value = Double(text), value.isFinite, abs(value) < 1e15 {
                if !warnedFraction {
                    warnedFraction = true
                    warnings.append(AssetWarning(.fontFractionalNumber, "\(place): '\(key)' is \(text), read as \(Int64(value))"))
                }
                return Int64(value)
            }
            throw problem("'\(key)' is '\(text)', not a number")
        }

        /// A whole number written in ASCII digits, with a sign or not (the common case, read
        /// without making a string); `nil` for anything else.
        static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
            var digits = bytes[...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.count <= 18 else { return nil }
            var value: Int64 = 0
            for byte in digits {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return negative ? -value : value
        }

        mutating func int(_ key: StaticString, _ values: BMFontRecordValues, default fallback: Int? = nil) throws -> Int {
            let value = try int64(key, values, default: fallback.map(Int64.init))
            guard abs(value) <= 1 << 30 else { throw problem("'\(key)' is \(value), out of range") }
            return Int(value)
        }

        /// A number of the `info` line, which describes how the font was made (libGDX and Phaser
        /// ignore it but for `face`, `size` and `padding`): written with no value (`unicode=`, as
        /// some tools write it), it is `fallback`, with a warning.
        mutating func info(_ key: StaticString, _ values: BMFontRecordValues, default fallback: Int) throws -> Int {
            if let raw = values.raw(key), raw.isEmpty {
                warnings.append(AssetWarning(.fontEmptyValue, "\(place): '\(key)' has no value; read as \(fallback)"))
                return fallback
            }
            return try int(key, values, default: fallback)
        }

        /// A width or height: never negative.
        mutating func size(_ key: StaticString, _ values: BMFontRecordValues) throws -> Int {
            let value = try int(key, values)
            guard value >= 0 else { throw problem("'\(key)' is \(value), below zero") }
            return value
        }

        /// `padding=1,2,3,4`: exactly `count` numbers, or `nil` when the key is absent.
        func ints(_ key: StaticString, _ values: BMFontRecordValues, count: Int) throws -> [Int]? {
            guard let text = values[key] else { return nil }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingSpaces) }
            guard parts.count == count, parts.allSatisfy({ $0 != nil && abs($0!) <= 1 << 30 }) else {
                throw problem("'\(key)' is '\(text)', not \(count) numbers separated by commas")
            }
            return parts.map { $0! }
        }
    }
}

/// The glyph and kerning tables as a descriptor's lines or blocks add to them: the last of two
/// entries for one id (or pair) wins, as libGDX and Phaser keep it, with a warning.
struct GlyphTableBuilder {
    private(set) var glyphs: [BitmapGlyph] = []
    private(set) var missingGlyph: BitmapGlyph?
    private(set) var kerningPairs: [KerningPair] = []
    private var glyphWarnings: [AssetWarning] = []
    private(set) var charLines = 0
    private(set) var kerningLines = 0
    private var glyphIndex: [Int64: Int] = [:]
    private var pairIndex: [KerningKey: Int] = [:]
    private var duplicates = 0
    /// Pairs written again with another amount: how many, and the first.
    private var conflictingPairs = 0
    private var firstConflict: KerningPair?

    /// A duplicate glyph's warning, and one for kerning pairs written again with other amounts.
    var warnings: [AssetWarning] {
        guard let pair = firstConflict else { return glyphWarnings }
        let others = conflictingPairs > 1 ? " (and \(conflictingPairs - 1) more pair\(conflictingPairs == 2 ? "" : "s"))" : ""
        let pairName = "\(BitmapFontError.name(pair.first)), \(BitmapFontError.name(pair.second))"
        return glyphWarnings + [
            AssetWarning(.fontConflictingKerning, "kerning pair \(pairName) is written again with another amount\(others); the last is used")
        ]
    }

    mutating func add(_ glyph: BitmapGlyph) {
        charLines += 1
        if glyph.id <= 0 {  // BMFont's -1 (binary: 0xFFFFFFFF read as -1): the missing-character glyph
            missingGlyph = glyph
        } else if let index = glyphIndex[glyph.id] {
            glyphs[index] = glyph
            duplicates += 1
            if duplicates == 1 {
                let name = BitmapFontError.name(glyph.id)
                glyphWarnings.append(AssetWarning(.fontDuplicateGlyph, "character \(name) is written more than once; the last is used"))
            }
        } else {
            glyphIndex[glyph.id] = glyphs.count
            glyphs.append(glyph)
        }
    }

    mutating func add(_ pair: KerningPair) {
        kerningLines += 1
        let key = KerningKey(first: pair.first, second: pair.second)
        if let index = pairIndex[key] {
            if kerningPairs[index].amount != pair.amount {
                conflictingPairs += 1
                if firstConflict == nil { firstConflict = pair }
            }
            kerningPairs[index] = pair
        } else {
            pairIndex[key] = kerningPairs.count
            kerningPairs.append(pair)
        }
    }
}

/// Two code points, as a kerning table's key.
struct KerningKey: Hashable, Sendable {
    var first: Int64
    var second: Int64
}

extension Substring {
    /// Without leading and trailing spaces.
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
