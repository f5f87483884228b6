import Preload

/// Why a document is not XML this reader reads: not well-formed (libxml2's message and line), or
/// declaring entities (which no game format needs and which could expand without bound).
public struct XMLReadError: AssetFailure, Equatable {
    /// What is wrong, in libxml2's words or this reader's.
    public let message: String
    /// The line it was found on, when known.
    public let line: Int?

    /// An error with `message`, found on `line`.
    public init(_ message: String, line: Int?) {
        self.message = message
        self.line = line
    }

    public var category: AssetError.Category { .corrupt }

    public var description: String {
        line.map { "not well-formed XML (line \($0)): \(message)" } ?? "not well-formed XML: \(message)"
    }
}
