import Preload

/// Reads XML (a TMX map, a BMFont descriptor, an atlas) as a sequence of ``XMLEvent``s, through
/// libxml2's pull parser opened at run time: a well-kept parser, no struct layouts declared by
/// hand, and nothing linked, so a game that names a product using it needs libxml2 only when it
/// meets an XML file (without it, each such file fails with `MissingSystemLibrary` naming the
/// package).
///
/// ```swift
/// import PreloadXML
///
/// var pages: [String] = []
/// try XMLDocumentReader.read(Array("<font><page id=\"0\" file=\"a.png\"/></font>".utf8)) { event in
///     if case .start(let tag) = event, tag.name == "page" { pages.append(tag.attributes["file"] ?? "") }
/// }
/// ```
///
/// Nothing outside the bytes is read (no network, no external DTD, no external entities), and a
/// document that declares entities is refused before parsing: with them refused, libxml2's size
/// limits can be lifted, so a large text node (a big map layer's CSV) reads whole. Encodings other
/// than UTF-8 that the document declares are converted by libxml2; bytes that are not in its
/// encoding fail.
public enum XMLDocumentReader {
    /// Calls `handle` with each event of the document in `bytes`, in order; stops at the first
    /// error `handle` throws (and rethrows it).
    /// - Throws: ``XMLReadError`` for a document that is not well-formed or declares entities,
    ///   `MissingSystemLibrary` without libxml2, or what `handle` throws.
    public static func read(_ bytes: [UInt8], _ handle: (XMLEvent) throws -> Void) throws {
        let library = try LibXML2.shared.get()
        guard bytes.count <= Int(Int32.max) else { throw XMLReadError("the document is larger than 2 GB", line: nil) }
        if bytes.firstRange(of: Array("<!ENTITY".utf8)) != nil {
            throw XMLReadError("it declares entities (<!ENTITY>), which are not read", line: nil)
        }
        let errors = ErrorCollector()
        let context = Unmanaged.passRetained(errors)
        defer { context.release() }
        try bytes.withUnsafeBufferPointer { buffer in
            let reader = buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    library.readerForMemory($0, Int32(buffer.count), nil, nil, LibXML2.options)
                }
            }
            guard let reader else { throw XMLReadError("the document is empty", line: nil) }
            defer { library.free(reader) }
            library.setErrorHandler(reader, collectError, context.toOpaque())
            while true {
                let step = library.read(reader)
                if step == 0 { break }
                guard step == 1, errors.message == nil else {
                    throw XMLReadError(errors.message ?? "unreadable", line: errors.line)
                }
                switch LibXML2.NodeType(rawValue: library.nodeType(reader)) {
                case .element:
                    let name = string(library.name(reader))
                    let line = library.nodeLine(library.currentNode(reader))
                    let isEmpty = library.isEmptyElement(reader) == 1
                    var attributes: [String: String] = [:]
                    while library.moveToNextAttribute(reader) == 1 {
                        attributes[string(library.name(reader))] = string(library.value(reader))
                    }
                    try handle(.start(XMLStartTag(name: name, attributes: attributes, line: line)))
                    if isEmpty { try handle(.end(name)) }
                case .endElement:
                    try handle(.end(string(library.name(reader))))
                case .text, .cdata:
                    try handle(.text(string(library.value(reader))))
                case nil:
                    continue  // comments, processing instructions, whitespace, the declaration
                }
            }
            if let message = errors.message { throw XMLReadError(message, line: errors.line) }
        }
    }

    private static func string(_ pointer: UnsafePointer<UInt8>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}

/// The first error libxml2 reports for one document (its handler's argument).
private final class ErrorCollector {
    var message: String?
    var line: Int?
}

/// libxml2's error handler: keeps the first error's message (on one line) and line.
private let collectError: LibXML2.ErrorFunction = { argument, error in
    guard let argument, let error else { return }
    let errors = Unmanaged<ErrorCollector>.fromOpaque(argument).takeUnretainedValue()
    guard errors.message == nil else { return }
    let message = error.load(fromByteOffset: LibXML2.ErrorFields.message, as: UnsafePointer<CChar>?.self)
    let text = (message.map { String(cString: $0) } ?? "unreadable").split(whereSeparator: \.isNewline)
    errors.message = text.map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: "; ")
    let line = error.load(fromByteOffset: LibXML2.ErrorFields.line, as: Int32.self)
    if line > 0 { errors.line = Int(line) }
}
