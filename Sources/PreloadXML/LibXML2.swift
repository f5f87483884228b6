import CPreloadXML
import Preload

/// libxml2's push parser with a SAX2 handler, opened at run time (`libxml2.so.2`, Debian's
/// `libxml2`, on every machine with a desktop or a Swift toolchain): the functions
/// ``XMLDocumentReader`` calls, resolved once for the process. The handler and the leading fields
/// of an error are declared in `CPreloadXML`, so no header is needed to build.
struct LibXML2: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    typealias InitParser = @convention(c) () -> Void
    typealias CreatePushParser =
        @convention(c) (UnsafeMutablePointer<PreloadXMLSAXHandler>?, UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?)
        -> OpaquePointer?
    typealias UseOptions = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias ParseChunk = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
    typealias ParserStep = @convention(c) (OpaquePointer?) -> Void
    typealias LineNumber = @convention(c) (OpaquePointer?) -> Int32
    /// `xmlGenericErrorFunc` is variadic; a handler that reads only its two named arguments is
    /// called the same way on the platforms Swift runs on.
    typealias GenericErrorFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
    typealias SetGenericError = @convention(c) (UnsafeMutableRawPointer?, GenericErrorFunction?) -> Void

    /// The library for this process, or why it is missing; opened (and `xmlInitParser` called,
    /// which libxml2 asks for before threads use it) on first use.
    static let shared = opened()
    static let location = SystemLibraryLocation("libxml2", soname: "libxml2.so.2", debian: "libxml2", dylib: "libxml2.2.dylib", homebrew: "libxml2")

    let createPushParser: CreatePushParser
    let useOptions: UseOptions
    let parseChunk: ParseChunk
    let stopParser: ParserStep
    let freeParser: ParserStep
    /// `xmlSAX2GetLineNumber`: the line the parser is on (of a start tag: its end).
    let lineNumber: LineNumber
    /// `xmlSetGenericErrorFunc`: the calling thread's handler for errors outside a parser's own
    /// (an encoding conversion that fails), which libxml2 otherwise prints on standard error.
    let setGenericError: SetGenericError

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        createPushParser = try library.function("xmlCreatePushParserCtxt")
        useOptions = try library.function("xmlCtxtUseOptions")
        parseChunk = try library.function("xmlParseChunk")
        stopParser = try library.function("xmlStopParser")
        freeParser = try library.function("xmlFreeParserCtxt")
        lineNumber = try library.function("xmlSAX2GetLineNumber")
        setGenericError = try library.function("xmlSetGenericErrorFunc")
        try library.function("xmlInitParser", as: InitParser.self)()
    }

    /// `xmlParserOption`s: references replaced (else SAX2 hands `&amp;` in an attribute over as
    /// `&#38;`; only the predefined ones and character references exist, declarations being
    /// refused), no network, no error printing (the handler collects them), CDATA as text, no
    /// hard-coded size limits (a large map's layer is one long text node; entity declarations,
    /// whose expansion those limits guard, are refused before parsing), and line numbers past
    /// 65,535.
    static let options: Int32 = 1 << 1 | 1 << 11 | 1 << 5 | 1 << 6 | 1 << 14 | 1 << 19 | 1 << 22
}
