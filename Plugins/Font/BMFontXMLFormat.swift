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
        var records: [BMFontRecord] = []
        var root: String?
        do {
            try XMLDocumentReader.read(data) { event in
                guard case .start(let tag) = event else { return }
                if root == nil { root = tag.name }
                records.append(BMFontRecord(tag: tag.name, attributes: tag.attributes, place: "element <\(tag.name)> on line \(tag.line)"))
            }
        } catch let error as XMLReadError {
            throw BitmapFontError.malformed(file: file, detail: error.description)
        }
        guard root == "font" else {
            throw BitmapFontError.notAFont(file: file, detail: "the XML's root element is '\(root ?? "")', not 'font'")
        }
        return BMFontRecords(records: records, file: file)
    }
}
