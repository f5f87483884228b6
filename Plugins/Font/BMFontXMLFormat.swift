import PreloadXML

/// BMFont's XML form (`<font><info .../><common .../><pages><page .../></pages>...`), read with
/// ``XMLDocumentReader`` (libxml2, opened at run time): every element becomes a record of its
/// attributes.
enum BMFontXMLFormat {
    /// Whether `header` starts like XML (after a byte-order mark and blanks): `<`.
    static func matches(_ header: [UInt8]) -> Bool {
        var bytes = header.starts(with: [0xEF, 0xBB, 0xBF]) ? header.dropFirst(3) : header[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D { bytes = bytes.dropFirst() }
        return bytes.first == UInt8(ascii: "<")
    }

    static func records(_ data: [UInt8], file: String) throws -> BMFontRecords {
        var records = BMFontRecords(file: file)
        var root: String?
        do {
            try XMLDocumentReader.readViews(data) { event in
                guard case .start(let tag) = event else { return }
                let name = String(decoding: tag.name, as: UTF8.self)
                if root == nil { root = name }
                // The element's keys and values after the others', the record's ranges into them.
                let firstField = records.fields.count
                for index in 0..<tag.attributeCount {
                    let keyStart = records.bytes.count
                    records.bytes += tag.attributeName(index)
                    let valueStart = records.bytes.count
                    records.bytes += tag.attributeValue(index)
                    records.fields.append((keyStart..<valueStart, valueStart..<records.bytes.count))
                }
                records.records.append(BMFontRecord(tag: name, fields: firstField..<records.fields.count, line: tag.line, isElement: true))
            }
        } catch let error as XMLReadError {
            throw BitmapFontError.malformed(file: file, detail: error.description)
        }
        guard root == "font" else {
            throw BitmapFontError.notAFont(file: file, detail: "the XML's root element is '\(root ?? "")', not 'font'")
        }
        return records
    }
}
