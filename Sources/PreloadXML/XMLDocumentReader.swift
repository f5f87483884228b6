#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CPreloadXML
import Preload

/// Reads XML (a TMX map, a BMFont descriptor, an atlas) as a sequence of ``XMLEvent``s, through
/// libxml2's SAX2 parser opened at run time: a well-kept parser, and nothing linked, so a game
/// that names a product using it needs libxml2 only when it meets an XML file (without it, each
/// such file fails with `MissingSystemLibrary` naming the package).
///
/// ```swift
/// import PreloadXML
///
/// var pages: [String] = []
/// try XMLDocumentReader.read(Array("<font><page id=\"0\" file=\"a.png\"/></font>".utf8)) { event in
///     if case .start(let tag) = event, tag.name == "page" { pages.append(tag["file"] ?? "") }
/// }
/// ```
///
/// ``readViews(_:_:)`` hands over the parser's own bytes instead of strings, for formats with
/// thousands of elements (a font's glyphs, a map's objects).
///
/// Nothing outside the bytes is read (no network, no external DTD, no external entities), and a
/// document that declares entities is refused before parsing: with them refused, libxml2's size
/// limits can be lifted, so a large text node (a big map layer's CSV) reads whole. Encodings other
/// than UTF-8 that the document declares are converted by libxml2; bytes that are not in its
/// encoding fail.
public enum XMLDocumentReader {
    /// Calls `handle` with each event of the document in `bytes`, in order, names and values as
    /// strings; stops at the first error `handle` throws (and rethrows it).
    /// - Throws: ``XMLReadError`` for a document that is not well-formed or declares entities,
    ///   `MissingSystemLibrary` without libxml2, or what `handle` throws.
    public static func read(_ bytes: [UInt8], _ handle: (XMLEvent) throws -> Void) throws {
        try readViews(bytes) { event in
            switch event {
            case .start(let view): try handle(.start(view.tag))
            case .end(let name): try handle(.end(String(decoding: name, as: UTF8.self)))
            case .text(let text): try handle(.text(String(decoding: text, as: UTF8.self)))
            }
        }
    }

    /// Calls `handle` with each event of the document in `bytes`, in order, names, values and
    /// text as the parser's UTF-8 bytes (valid only during the call); stops at the first error
    /// `handle` throws (and rethrows it).
    /// - Throws: as ``read(_:_:)``.
    public static func readViews(_ bytes: [UInt8], _ handle: (XMLEventView) throws -> Void) throws {
        let library = try LibXML2.shared.get()
        guard bytes.count <= Int(Int32.max) else { throw XMLReadError("the document is larger than 2 GB", line: nil) }
        guard !bytes.isEmpty else { throw XMLReadError("the document is empty", line: nil) }
        if contains(bytes, "<!ENTITY") {
            throw XMLReadError("it declares entities (<!ENTITY>), which are not read", line: nil)
        }
        try withoutActuallyEscaping(handle) { handle in
            let parse = SAXParse(library: library, handle: handle)
            let context = Unmanaged.passRetained(parse)
            defer { context.release() }
            var handler = PreloadXMLSAXHandler()
            handler.initialized = PRELOAD_XML_SAX2_MAGIC
            handler.startElementNs = startElement
            handler.endElementNs = endElement
            handler.characters = characters
            handler.cdataBlock = characters
            handler.structuredError = collectError
            library.setGenericError(nil, ignoreGenericError)  // this thread's: nothing on standard error
            guard let parser = library.createPushParser(&handler, context.toOpaque(), nil, 0, nil) else {
                throw XMLReadError("libxml2 could not make a parser", line: nil)
            }
            defer { library.freeParser(parser) }
            parse.parser = parser
            _ = library.useOptions(parser, LibXML2.options)
            let status = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { library.parseChunk(parser, $0.baseAddress, Int32(buffer.count), 1) }
            }
            if let failure = parse.failure { throw failure }
            if let message = parse.errorMessage { throw XMLReadError(message, line: parse.errorLine) }
            if status != 0 { throw XMLReadError("libxml2 stopped with error \(status)", line: nil) }
        }
    }

    /// Whether `bytes` contain `text`, found by `memchr` on its first byte and a compare (a
    /// generic search over the array cost more than the parse itself).
    private static func contains(_ bytes: [UInt8], _ text: StaticString) -> Bool {
        bytes.withUnsafeBytes { haystack in
            guard let base = haystack.baseAddress, text.utf8CodeUnitCount > 0 else { return false }
            let first = Int32(text.utf8Start.pointee), length = text.utf8CodeUnitCount
            var offset = 0
            while haystack.count - offset >= length, let found = memchr(base + offset, first, haystack.count - offset - length + 1) {
                if memcmp(found, text.utf8Start, length) == 0 { return true }
                offset = base.distance(to: UnsafeRawPointer(found)) + 1
            }
            return false
        }
    }
}

/// One document's parse, as libxml2's callbacks see it (their context argument).
private final class SAXParse {
    let library: LibXML2
    let handle: (XMLEventView) throws -> Void
    var parser: OpaquePointer?
    /// Character data since the last tag, handed over at the next one.
    var text: [UInt8] = []
    /// What `handle` threw: parsing stops at once, and `readViews` rethrows it.
    var failure: (any Error)?
    /// The first error libxml2 reported, and its line.
    var errorMessage: String?
    var errorLine: Int?

    init(library: LibXML2, handle: @escaping (XMLEventView) throws -> Void) {
        self.library = library
        self.handle = handle
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> SAXParse? {
        context.map { Unmanaged<SAXParse>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Calls `handle` with `event`, unless an earlier call failed; stops the parser on a failure.
    func deliver(_ event: XMLEventView) {
        guard failure == nil else { return }
        do {
            try handle(event)
        } catch {
            failure = error
            library.stopParser(parser)
        }
    }

    /// Hands over the text gathered since the last tag, unless it is only spaces and line breaks.
    func flushText() {
        defer { text.removeAll(keepingCapacity: true) }
        guard text.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return }
        text.withUnsafeBufferPointer { deliver(.text($0)) }
    }
}

private let startElement: PreloadXMLStartElementNs = { context, name, prefix, _, _, _, attributeCount, _, attributes in
    guard let parse = SAXParse.from(context), parse.failure == nil else { return }
    parse.flushText()
    let pointers = UnsafeRawPointer(attributes)?.assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
    let view = XMLStartTagView(
        name: XMLStartTagView.terminated(name), prefix: XMLStartTagView.terminated(prefix), attributeCount: Int(attributeCount),
        line: Int(parse.library.lineNumber(parse.parser)), attributes: pointers)
    parse.deliver(.start(view))
}

private let endElement: PreloadXMLEndElementNs = { context, name, _, _ in
    guard let parse = SAXParse.from(context), parse.failure == nil else { return }
    parse.flushText()
    parse.deliver(.end(XMLStartTagView.terminated(name)))
}

private let characters: PreloadXMLCharacters = { context, characters, length in
    guard let parse = SAXParse.from(context), parse.failure == nil, let characters, length > 0 else { return }
    parse.text.append(contentsOf: UnsafeBufferPointer(start: characters, count: Int(length)))
}

/// Errors outside the parser's own (an encoding conversion's): the parser reports the failure
/// through ``collectError`` as well, so these are dropped rather than printed.
private let ignoreGenericError: LibXML2.GenericErrorFunction = { _, _ in }

/// libxml2's structured error handler: keeps the first error's message (on one line) and line;
/// warnings are not errors.
private let collectError: PreloadXMLStructuredError = { context, error in
    guard let parse = SAXParse.from(context), parse.errorMessage == nil, let error else { return }
    let fields = error.assumingMemoryBound(to: PreloadXMLError.self).pointee
    guard fields.level >= 2 else { return }  // XML_ERR_ERROR, XML_ERR_FATAL
    let text = (fields.message.map { String(cString: $0) } ?? "unreadable").split(whereSeparator: \.isNewline)
    parse.errorMessage = text.map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: "; ")
    if fields.line > 0 { parse.errorLine = Int(fields.line) }
}
