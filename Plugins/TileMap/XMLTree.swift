import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A TMX or TSX file as a tree of elements, parsed by Foundation's `XMLParser` (libxml2) with
/// external entities off. A `<tile gid="...">` inside `<data>` or `<chunk>` (Tiled's oldest
/// layer data format) becomes a number in its parent's ``Element/gids`` rather than an element
/// of its own, so a large layer in that format costs 4 bytes a tile.
final class XMLTree {
    /// One element: its name, attributes, child elements and text.
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""
        /// The IDs of `<tile>` children, for `<data>` and `<chunk>`.
        var gids: [UInt32] = []

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        /// The child elements called `name`, in order.
        func children(named name: String) -> [Element] { children.filter { $0.name == name } }

        /// The first child element called `name`.
        func child(named name: String) -> Element? { children.first { $0.name == name } }
    }

    /// Parses `bytes`; the root element, or why the text is not well-formed XML.
    ///
    /// The text must be UTF-8, as Tiled writes it: corelibs' `XMLParser` force-unwraps element,
    /// attribute and comment names as UTF-8 and traps on any other bytes libxml2 recovers past
    /// (`Fuzz/run tilemap` found it: `<prop\xFF\xFF\xFFerty>`), so they never reach it.
    static func parse(_ bytes: [UInt8]) -> Result<Element, XMLProblem> {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            return .failure(XMLProblem(detail: "the text is not UTF-8 (Tiled writes UTF-8)"))
        }
        if let declared = declaredEncoding(bytes), !["utf-8", "utf8"].contains(declared.lowercased()) {
            return .failure(XMLProblem(detail: "it declares the encoding \(declared), where Tiled writes UTF-8"))
        }
        // Tiled never declares entities; a file that does is refused before libxml2 expands any.
        if declaresEntities(bytes) { return .failure(XMLProblem(detail: "it declares XML entities, which Tiled never writes")) }
        let builder = Builder()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let problem = builder.problem { return .failure(problem) }
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "no root element"
            return .failure(
                XMLProblem(detail: "not well-formed XML (line \(parser.lineNumber), column \(parser.columnNumber): \(reason))"))
        }
        return .success(root)
    }

    /// Whether `bytes` holds `<!ENTITY` (found by its `!`, which XML text rarely holds, with `memchr`).
    private static func declaresEntities(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var start = 0
            while start < buffer.count, let found = memchr(base + start, Int32(UInt8(ascii: "!")), buffer.count - start) {
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if at > 0, buffer[at - 1] == UInt8(ascii: "<"), buffer[at...].starts(with: "!ENTITY".utf8) { return true }
                start = at + 1
            }
            return false
        }
    }

    /// The encoding the XML declaration names (`<?xml version="1.0" encoding="UTF-8"?>`), if any.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard bytes[start...].starts(with: Array("<?xml".utf8)), let end = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[start..<end], as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        let value = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
        return String(value.prefix { $0 != "\"" && $0 != "'" && $0 != " " && $0 != "?" })
    }

    /// Why a file is not XML the reader takes.
    struct XMLProblem: Error {
        let detail: String
    }

    /// Builds the tree from the parser's events.
    private final class Builder: NSObject, XMLParserDelegate {
        var root: Element?
        var problem: XMLProblem?
        private var stack: [Element] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]
        ) {
            if name == "tile", let parent = stack.last, parent.name == "data" || parent.name == "chunk" {
                let text = attributes["gid"].map { String($0.trimmingWhiteSpace) } ?? "0"
                guard let gid = UInt32(text) else {
                    fail(parser, "a <tile> of layer data has gid '\(text)', which is not a global tile ID")
                    return
                }
                parent.gids.append(gid)
                stack.append(Element(name: "", attributes: [:]))  // a placeholder its end pops
                return
            }
            let element = Element(name: name, attributes: attributes)
            if let parent = stack.last {
                if !parent.name.isEmpty { parent.children.append(element) }
            } else if root == nil {
                root = element
            }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            stack.last?.text += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
            if problem == nil {
                problem = XMLProblem(
                    detail:
                        "not well-formed XML (line \(parser.lineNumber), column \(parser.columnNumber): \((error as NSError).localizedDescription))"
                )
            }
        }

        private func fail(_ parser: XMLParser, _ detail: String) {
            if problem == nil { problem = XMLProblem(detail: "line \(parser.lineNumber): \(detail)") }
            parser.abortParsing()
        }
    }
}
