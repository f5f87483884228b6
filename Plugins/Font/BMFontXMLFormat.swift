import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// BMFont's XML form (`<font><info .../><common .../><pages><page .../></pages>...`), read with
/// Foundation's `XMLParser` (libxml2 on Linux): every element becomes a record of its
/// attributes. External entities are never resolved.
enum BMFontXMLFormat {
    /// Whether `header` starts like XML (after a byte-order mark and blanks): `<`.
    static func matches(_ header: [UInt8]) -> Bool {
        var bytes = header.starts(with: [0xEF, 0xBB, 0xBF]) ? header.dropFirst(3) : header[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D { bytes = bytes.dropFirst() }
        return bytes.first == UInt8(ascii: "<")
    }

    static func records(_ data: [UInt8], file: String) throws -> BMFontRecords {
        // Foundation's XMLParser on Linux traps on a name that is not UTF-8 (libxml2 hands it
        // over before it notices): such a document is refused first.
        guard String(validating: data, as: UTF8.self) != nil else {
            throw BitmapFontError.malformed(file: file, detail: "the XML is not valid UTF-8")
        }
        let parser = XMLParser(data: Data(data))
        parser.shouldResolveExternalEntities = false
        let collector = ElementCollector()
        parser.delegate = collector
        guard parser.parse(), collector.problem == nil else {
            let line = parser.lineNumber
            let detail = collector.problem ?? parser.parserError.map { "\($0.localizedDescription)" } ?? "unreadable XML"
            throw BitmapFontError.malformed(file: file, detail: "XML line \(line): \(detail)")
        }
        guard collector.root == "font" else {
            throw BitmapFontError.notAFont(file: file, detail: "the XML's root element is '\(collector.root ?? "")', not 'font'")
        }
        return BMFontRecords(records: collector.records, file: file)
    }

    /// Collects each element's name and attributes, in document order.
    private final class ElementCollector: NSObject, XMLParserDelegate {
        var records: [BMFontRecord] = []
        var root: String?
        var problem: String?
        private var depth = 0

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = elementName }
            depth += 1
            if depth > 64 {
                problem = "elements nested more than 64 deep"
                parser.abortParsing()
                return
            }
            records.append(BMFontRecord(tag: elementName, attributes: attributes, place: "element <\(elementName)> on line \(parser.lineNumber)"))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
        }
    }
}
