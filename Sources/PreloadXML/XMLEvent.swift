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
    /// Its attributes in document order, values with references resolved. A list, not a
    /// dictionary: an element has a handful, found faster by comparison than by hashing (a
    /// font's thousands of `char` elements, a map's objects).
    public var attributes: [XMLAttribute]
    /// The line it is on, from 1.
    public var line: Int

    /// A start tag.
    public init(name: String, attributes: [XMLAttribute], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// The value of the attribute `name` (`tag["id"]`), or `nil` if the element has none.
    public subscript(name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

/// One attribute of a start tag: `id="65"`.
public struct XMLAttribute: Hashable, Sendable {
    /// Its name as written.
    public var name: String
    /// Its value, references resolved.
    public var value: String

    /// An attribute `name="value"`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
