import PreloadXML

/// A TMX or TSX file as a tree of elements, parsed by ``XMLDocumentReader`` (libxml2's SAX2
/// parser, opened at run time; nothing outside the bytes is read, entities are refused). A `<tile gid="...">` inside `<data>` or `<chunk>` (Tiled's oldest
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

    /// Parses `bytes`: the root element. Throws ``XMLProblem`` for text that is not well-formed
    /// XML (libxml2's message and line), declares entities, or holds a bad `<tile gid>`, and
    /// `MissingSystemLibrary` without libxml2.
    static func parse(_ bytes: [UInt8]) throws -> Element {
        let builder = Builder()
        do {
            try XMLDocumentReader.readViews(bytes) { try builder.take($0) }
        } catch let error as XMLReadError {
            throw XMLProblem(detail: error.description)
        }
        guard let root = builder.root else { throw XMLProblem(detail: "no root element") }
        return root
    }

    /// Why a file is not XML the reader takes.
    struct XMLProblem: Error {
        let detail: String
    }

    /// Builds the tree from the parser's events.
    private final class Builder {
        var root: Element?
        private var stack: [Element] = []

        func take(_ event: XMLEventView) throws {
            switch event {
            case .start(let tag):
                let name = String(decoding: tag.name, as: UTF8.self)
                if name == "tile", let parent = stack.last, parent.name == "data" || parent.name == "chunk" {
                    let written = tag.value(of: "gid").map { String(decoding: $0, as: UTF8.self) }
                    let text = written.map { String($0.trimmingWhiteSpace) } ?? "0"
                    guard let gid = UInt32(text) else {
                        throw XMLProblem(detail: "line \(tag.line): a <tile> of layer data has gid '\(text)', which is not a global tile ID")
                    }
                    parent.gids.append(gid)
                    stack.append(Element(name: "", attributes: [:]))  // a placeholder its end pops
                    return
                }
                var attributes: [String: String] = [:]
                for index in 0..<tag.attributeCount {
                    attributes[String(decoding: tag.attributeName(index), as: UTF8.self)] = String(decoding: tag.attributeValue(index), as: UTF8.self)
                }
                let element = Element(name: name, attributes: attributes)
                if let parent = stack.last {
                    if !parent.name.isEmpty { parent.children.append(element) }
                } else if root == nil {
                    root = element
                }
                stack.append(element)
            case .end:
                _ = stack.popLast()
            case .text(let text):
                stack.last?.text += String(decoding: text, as: UTF8.self)
            }
        }
    }
}
