#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The members of one JSON object, read off its text one at a time without building any value:
/// a scanner, not a parser. Strings are skipped with their escapes, nesting is counted, and a
/// member's value is skipped (or read, when it is a string) only when asked. Text that ends
/// early (a file's first bytes) ends the members, with ``ranOut`` set.
///
/// Plugins that tell a JSON format by its keys (Tiled's map, whose keys Tiled writes sorted, so
/// that `orientation` follows the whole `layers` array) and a manifest that needs its keys'
/// order (which `JSONSerialization` forgets) read JSON keys this one way.
public struct JSONMembers {
    /// The text, and a NUL after it, so that `strcspn` finds the next byte that matters in a
    /// value being skipped at C's speed (a layer's 100,000 tile IDs hold two), even in a debug
    /// build. A NUL inside the text (not JSON) only stops it early.
    private let bytes: [UInt8]
    /// The text's length.
    private let count: Int
    /// Where the scanner is: at a member's value after ``nextKey()``.
    public private(set) var position = 0

    /// Whether the text ended before the object did.
    public var ranOut: Bool { position >= count }

    /// Members of the object that `bytes` is (after white space and a UTF-8 byte-order mark);
    /// `nil` when it is not an object.
    public init?(_ bytes: [UInt8]) {
        var terminated = bytes
        terminated.append(0)
        self.bytes = terminated
        count = bytes.count
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        guard enterObject() else { return nil }
    }

    /// The keys of the object reached by following `path` (keys of nested objects) from the top
    /// level of `document`, in the order the text writes them, which `JSONSerialization`
    /// forgets (its dictionaries are unordered); empty when there is no such object. A manifest
    /// loads its groups in this order; an atlas's hash of frames is read in it.
    public static func keys(in document: [UInt8], at path: [String] = []) -> [String] {
        guard var members = JSONMembers(document) else { return [] }
        for key in path {
            var found: JSONMembers?
            while let next = members.nextKey() {
                if next == key {
                    found = members.nested()
                    break
                }
            }
            guard let inner = found else { return [] }
            members = inner
        }
        var keys: [String] = []
        while let key = members.nextKey() { keys.append(key) }
        return keys
    }

    /// Members of the object that is the value of the member whose key ``nextKey()`` just
    /// returned; `nil` when that value is not an object.
    public func nested() -> JSONMembers? {
        var copy = self
        copy.atValue = false
        return copy.enterObject() ? copy : nil
    }

    private mutating func enterObject() -> Bool {
        skipSpace()
        guard peek == UInt8(ascii: "{") else { return false }
        position += 1
        return true
    }

    private var peek: UInt8? { position < count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    /// The next member's key (escapes decoded for the common ones; a key with another escape
    /// keeps its text, which never matches a key anyone looks up by name), with the scanner at
    /// its value; `nil` at the object's end, where the text ends or stops being JSON. Skips the
    /// previous member's value if it was not read.
    public mutating func nextKey() -> String? {
        if atValue { skipValue() }
        while true {
            skipSpace()
            guard let byte = peek else { return nil }
            if byte == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard byte == UInt8(ascii: "\"") else { return nil }  // `}`, or not JSON
            let key = string()
            skipSpace()
            guard peek == UInt8(ascii: ":") else { return nil }
            position += 1
            skipSpace()
            atValue = true
            return key
        }
    }

    /// Whether the scanner is at a value ``nextKey()`` returned and nobody read.
    private var atValue = false

    /// The current member's value, when it is a string (and whole in the text); `nil` for any
    /// other value, which is skipped.
    public mutating func stringValue() -> String? {
        guard atValue else { return nil }
        atValue = false
        guard peek == UInt8(ascii: "\"") else {
            skipValue()
            return nil
        }
        let text = string()
        return ranOut ? nil : text
    }

    /// Reads the string starting at the scanner, decoded.
    private mutating func string() -> String {
        position += 1
        var text: [UInt8] = []
        while let byte = peek, byte != UInt8(ascii: "\"") {
            position += 1
            guard byte == UInt8(ascii: "\\"), let escaped = peek else {
                text.append(byte)
                continue
            }
            position += 1
            switch escaped {
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "u"):
                let hex = bytes[position..<min(count, position + 4)]
                position += hex.count
                if let value = UInt32(String(decoding: hex, as: UTF8.self), radix: 16), let scalar = Unicode.Scalar(value) {
                    text += Array(String(Character(scalar)).utf8)
                }
            default: text.append(escaped)
            }
        }
        position += 1
        return String(decoding: text, as: UTF8.self)
    }

    /// Skips the string starting at the scanner without decoding it.
    private mutating func skipString() {
        position += 1
        while position < count {
            position += span(until: Self.stringEnds)
            guard position < count else { return }
            if bytes[position] == UInt8(ascii: "\"") {
                position += 1
                return
            }
            position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1  // an escape, or a NUL in the text
        }
    }

    /// Skips one value of any kind, building nothing.
    private mutating func skipValue() {
        atValue = false
        var depth = 0
        while position < count {
            if depth > 0 { position += span(until: Self.structure) }  // inside an array or object: only these matter
            guard position < count else { return }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                skipString()
                if depth == 0 { return }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return }
                depth -= 1
                if depth == 0 {
                    position += 1
                    return
                }
            case UInt8(ascii: ","):
                if depth == 0 { return }
            default: break
            }
            position += 1
        }
    }

    /// Bytes that end a string's run of plain characters.
    private static let stringEnds: [CChar] = Array("\"\\".utf8CString)
    /// Bytes that open, close or quote within a value being skipped.
    private static let structure: [CChar] = Array("\"{}[]".utf8CString)

    /// How many bytes from ``position`` are none of `stop`'s (or the NUL after the text).
    private func span(until stop: [CChar]) -> Int {
        bytes.withUnsafeBytes { text in
            stop.withUnsafeBufferPointer { stop in
                strcspn(text.baseAddress!.assumingMemoryBound(to: CChar.self) + position, stop.baseAddress!)
            }
        }
    }
}
