/// BMFont's text form: one record a line, `tag key=value key="quoted value" ...`.
///
/// Read as bytes, so a CRLF file (BMFont is a Windows tool) reads like an LF one; a UTF-8
/// byte-order mark is skipped; a quoted value runs to the next quote (BMFont does not escape
/// them) and may hold spaces (`face="Arial Black"`); a word without `=` is ignored.
enum BMFontTextFormat {
    /// Whether `header` starts like the text form: `info ` or `common ` (after a byte-order mark).
    static func matches(_ header: [UInt8]) -> Bool {
        let bytes = header.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(header.dropFirst(3)) : header
        return bytes.starts(with: Array("info ".utf8)) || bytes.starts(with: Array("common ".utf8))
    }

    static func records(_ data: [UInt8], file: String) -> BMFontRecords {
        var records = BMFontRecords(file: file)
        records.bytes = data
        var start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lineNumber = 0
        let newline = UInt8(ascii: "\n")
        while start < data.count {
            lineNumber += 1
            let end = data[start...].firstIndex(of: newline) ?? data.count
            if let record = record(data, start..<end, line: lineNumber, fields: &records.fields) { records.records.append(record) }
            start = end + 1
        }
        return records
    }

    /// The record on `range` of `data` (one line), its attributes appended to `fields`, or `nil`
    /// for a blank line.
    private static func record(
        _ data: [UInt8], _ range: Range<Int>, line lineNumber: Int, fields: inout [(key: Range<Int>, value: Range<Int>)]
    ) -> BMFontRecord? {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), carriageReturn = UInt8(ascii: "\r")
        let equals = UInt8(ascii: "="), quote = UInt8(ascii: "\"")
        func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab || byte == carriageReturn }
        var index = range.lowerBound
        let end = range.upperBound
        func skipBlanks() { while index < end && isBlank(data[index]) { index += 1 } }
        skipBlanks()
        let tagStart = index
        while index < end && !isBlank(data[index]) { index += 1 }
        guard index > tagStart else { return nil }
        let tag = String(decoding: data[tagStart..<index], as: UTF8.self)
        let firstField = fields.count
        while true {
            skipBlanks()
            guard index < end else { break }
            let keyStart = index
            while index < end && !isBlank(data[index]) && data[index] != equals { index += 1 }
            let key = keyStart..<index
            guard index < end, data[index] == equals else { continue }  // a word without a value
            index += 1
            if index < end && data[index] == quote {
                let valueStart = index + 1
                let close = data[valueStart..<end].firstIndex(of: quote) ?? end
                fields.append((key, valueStart..<close))
                index = min(close + 1, end)
            } else {
                let valueStart = index
                while index < end && !isBlank(data[index]) { index += 1 }
                fields.append((key, valueStart..<index))
            }
        }
        return BMFontRecord(tag: tag, fields: firstField..<fields.count, line: lineNumber)
    }
}
