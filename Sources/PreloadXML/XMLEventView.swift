#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What ``XMLDocumentReader/readViews(_:_:)`` hands over: an ``XMLEvent`` whose names, values
/// and text are the parser's own UTF-8 bytes, valid only during the call (for plugins that read
/// thousands of elements and want numbers, not strings).
public enum XMLEventView {
    /// An element starts.
    case start(XMLStartTagView)
    /// An element ends: its name (without a prefix).
    case end(UnsafeBufferPointer<UInt8>)
    /// Character data inside an element (CDATA included), references resolved; text of only
    /// spaces and line breaks between elements is not reported.
    case text(UnsafeBufferPointer<UInt8>)
}

/// A start tag as the parser hands it over: valid only during the call.
public struct XMLStartTagView {
    /// The element's name (without a prefix).
    public let name: UnsafeBufferPointer<UInt8>
    /// The element's namespace prefix, empty if none.
    public let prefix: UnsafeBufferPointer<UInt8>
    /// How many attributes it has.
    public let attributeCount: Int
    /// The line it is on (where the tag ends).
    public let line: Int
    /// libxml2's five pointers per attribute: name, prefix, namespace, value start, value end.
    let attributes: UnsafePointer<UnsafePointer<UInt8>?>?

    /// The name of attribute `index` (without a prefix).
    public func attributeName(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        Self.terminated(attributes?[index * 5])
    }

    /// The prefix of attribute `index`, empty if none.
    public func attributePrefix(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        Self.terminated(attributes?[index * 5 + 1])
    }

    /// The value of attribute `index`, references resolved.
    public func attributeValue(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard let start = attributes?[index * 5 + 3], let end = attributes?[index * 5 + 4] else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: start, count: start.distance(to: end))
    }

    /// The value of the attribute `name` (compared as bytes), if the element has it.
    public func value(of name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for index in 0..<attributeCount where attributeName(index).elementsEqual(wanted) {
            return attributeValue(index)
        }
        return nil
    }

    /// The tag with strings: what ``XMLDocumentReader/read(_:_:)`` hands over.
    public var tag: XMLStartTag {
        XMLStartTag(
            name: Self.qualified(prefix, name),
            attributes: (0..<attributeCount).map { index in
                XMLAttribute(Self.qualified(attributePrefix(index), attributeName(index)), String(decoding: attributeValue(index), as: UTF8.self))
            }, line: line)
    }

    static func qualified(_ prefix: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> String {
        prefix.isEmpty ? String(decoding: name, as: UTF8.self) : String(decoding: prefix, as: UTF8.self) + ":" + String(decoding: name, as: UTF8.self)
    }

    static func terminated(_ pointer: UnsafePointer<UInt8>?) -> UnsafeBufferPointer<UInt8> {
        guard let pointer else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: pointer, count: strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self)))
    }
}
