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
        var records: [BMFontRecord] = []
        var start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lineNumber = 0
        let newline = UInt8(ascii: "\n")
        while start < data.count {
            lineNumber += 1
            let end = data[start...].firstIndex(of: newline) ?? data.count
            if let record = record(data[start..<end], place: "line \(lineNumber)") { records.append(record) }
            start = end + 1
        }
        return BMFontRecords(records: records, file: file)
    }

    private static func record(_ line: ArraySlice<UInt8>, place: String) -> BMFontRecord? {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), carriageReturn = UInt8(ascii: "\r")
        let equals = UInt8(ascii: "="), quote = UInt8(ascii: "\"")
        func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab || byte == carriageReturn }
        var index = line.startIndex
        func skipBlanks() { while index < line.endIndex && isBlank(line[index]) { index += 1 } }
        skipBlanks()
        let tagStart = index
        while index < line.endIndex && !isBlank(line[index]) { index += 1 }
        guard index > tagStart else { return nil }
        let tag = String(decoding: line[tagStart..<index], as: UTF8.self)
        var attributes: [String: String] = [:]
        while true {
            skipBlanks()
            guard index < line.endIndex else { break }
            let keyStart = index
            while index < line.endIndex && !isBlank(line[index]) && line[index] != equals { index += 1 }
            let key = String(decoding: line[keyStart..<index], as: UTF8.self)
            guard index < line.endIndex, line[index] == equals else { continue }  // a word without a value
            index += 1
            let value: ArraySlice<UInt8>
            if index < line.endIndex && line[index] == quote {
                let valueStart = index + 1
                let close = line[valueStart...].firstIndex(of: quote) ?? line.endIndex
                value = line[valueStart..<close]
                index = min(close + 1, line.endIndex)
            } else {
                let valueStart = index
                while index < line.endIndex && !isBlank(line[index]) { index += 1 }
                value = line[valueStart..<index]
            }
            attributes[key] = String(decoding: value, as: UTF8.self)
        }
        return BMFontRecord(tag: tag, attributes: attributes, place: place)
    }
}
