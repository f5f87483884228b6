/// What ``XMLDocumentReader`` meets in a document, in document order.
public enum XMLEvent: Hashable, Sendable {
    /// An element starts: its name (with its prefix, if any), attributes and line. An empty
    /// element (`<page id="0"/>`) is followed by its ``end(_:)`` at once.
    case start(XMLStartTag)
    /// An element ends (its name).
    case end(String)
    /// Character data inside an element (CDATA sections included), entity references resolved;
    /// text of only spaces and line breaks between elements is not reported.
    case text(String)
}

/// An element's start: `<char id="65" x="0"/>`.
public struct XMLStartTag: Hashable, Sendable {
    /// The element's name as written (`char`).
    public var name: String
    /// Its attributes by name (`["id": "65", "x": "0"]`), values with references resolved.
    public var attributes: [String: String]
    /// The line it is on, from 1.
    public var line: Int

    /// A start tag.
    public init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }
}
