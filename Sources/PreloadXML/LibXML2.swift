import Preload

/// libxml2's pull parser (`xmlTextReader`), opened at run time (`libxml2.so.2`, Debian's
/// `libxml2`, on every machine with a desktop or a Swift toolchain): the functions
/// ``XMLDocumentReader`` calls, resolved once for the process. Functions and opaque pointers
/// cross, and two fields of an error (``ErrorFields``), so no header is needed to build.
struct LibXML2: @unchecked Sendable {  // C function pointers, immutable once resolved
    typealias InitParser = @convention(c) () -> Void
    typealias ReaderForMemory = @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> OpaquePointer?
    typealias ReaderStep = @convention(c) (OpaquePointer?) -> Int32
    typealias ReaderString = @convention(c) (OpaquePointer?) -> UnsafePointer<UInt8>?
    typealias FreeReader = @convention(c) (OpaquePointer?) -> Void
    typealias CurrentNode = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias NodeLine = @convention(c) (OpaquePointer?) -> Int
    /// `xmlStructuredErrorFunc`: the handler's argument, the error (an `xmlError`).
    typealias ErrorFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void
    typealias SetErrorHandler = @convention(c) (OpaquePointer?, ErrorFunction?, UnsafeMutableRawPointer?) -> Void

    /// Where `xmlError`'s message and line are (`int domain; int code; char *message; int level;
    /// char *file; int line; ...`, unchanged since libxml2 2.0 on LP64 systems).
    enum ErrorFields {
        static let message = 8
        static let line = 32
    }

    /// The library for this process, or why it is missing; opened (and `xmlInitParser` called,
    /// which libxml2 asks for before threads use it) on first use.
    static let shared = Result { () throws(MissingSystemLibrary) in try LibXML2() }

    let readerForMemory: ReaderForMemory
    let read: ReaderStep
    let nodeType: ReaderStep
    let isEmptyElement: ReaderStep
    let moveToNextAttribute: ReaderStep
    let name: ReaderString
    let value: ReaderString
    let free: FreeReader
    let setErrorHandler: SetErrorHandler
    /// `xmlTextReaderCurrentNode` and `xmlGetLineNo`: the line a node starts on (the parser's
    /// own line runs ahead of the node it hands out).
    let currentNode: CurrentNode
    let nodeLine: NodeLine

    private init() throws(MissingSystemLibrary) {
        #if canImport(Darwin)
            let library = try SystemLibrary.open("libxml2", fileNames: ["libxml2.2.dylib", "/usr/lib/libxml2.2.dylib"], package: "libxml2")
        #else
            let library = try SystemLibrary.open("libxml2", fileNames: ["libxml2.so.2"], package: "libxml2")
        #endif
        readerForMemory = try library.function("xmlReaderForMemory", as: ReaderForMemory.self)
        read = try library.function("xmlTextReaderRead", as: ReaderStep.self)
        nodeType = try library.function("xmlTextReaderNodeType", as: ReaderStep.self)
        isEmptyElement = try library.function("xmlTextReaderIsEmptyElement", as: ReaderStep.self)
        moveToNextAttribute = try library.function("xmlTextReaderMoveToNextAttribute", as: ReaderStep.self)
        name = try library.function("xmlTextReaderConstName", as: ReaderString.self)
        value = try library.function("xmlTextReaderConstValue", as: ReaderString.self)
        free = try library.function("xmlFreeTextReader", as: FreeReader.self)
        setErrorHandler = try library.function("xmlTextReaderSetStructuredErrorHandler", as: SetErrorHandler.self)
        currentNode = try library.function("xmlTextReaderCurrentNode", as: CurrentNode.self)
        nodeLine = try library.function("xmlGetLineNo", as: NodeLine.self)
        try library.function("xmlInitParser", as: InitParser.self)()
    }

    /// `xmlParserOption`s: no network, no error printing (the handler collects them), CDATA as
    /// text, no hard-coded size limits (a large map's layer is one long text node; entity
    /// declarations, whose expansion those limits guard, are refused before parsing), and line
    /// numbers past 65,535.
    static let options: Int32 = 1 << 11 | 1 << 5 | 1 << 6 | 1 << 14 | 1 << 19 | 1 << 22

    /// `xmlReaderTypes`.
    enum NodeType: Int32 {
        case element = 1
        case text = 3
        case cdata = 4
        case endElement = 15
    }
}
