/// The order of an object's keys as written in a JSON document, which `JSONSerialization`
/// forgets (its dictionaries are unordered) and a manifest needs: groups load, and Phaser's
/// loader walks a pack's sections, in the order the file gives them.
///
/// A scanner, not a parser: it runs after `JSONSerialization` accepted the document, skips
/// strings (with their escapes) and counts nesting, and collects the keys met at one depth
/// inside the object reached by following `path` from the top level.
enum JSONKeyOrder {
    /// The keys of the object at `path` (keys of nested objects, from the top level), in document
    /// order; empty if there is no such object.
    static func keys(in document: [UInt8], at path: [String] = []) -> [String] {
        var scanner = Scanner(bytes: document)
        guard scanner.skipToValue(), scanner.peek == UInt8(ascii: "{") else { return [] }
        for key in path {
            guard let found = scanner.members().first(where: { $0.key == key }) else { return [] }
            scanner.position = found.valueStart
            guard scanner.skipToValue(), scanner.peek == UInt8(ascii: "{") else { return [] }
        }
        return scanner.members().map(\.key)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        /// Skips whitespace; false at the end.
        mutating func skipToValue() -> Bool {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
            return peek != nil
        }

        /// The members of the object starting at `position` (its keys decoded, and where each
        /// value starts); leaves `position` just past the object.
        mutating func members() -> [(key: String, valueStart: Int)] {
            var found: [(key: String, valueStart: Int)] = []
            position += 1  // {
            while skipToValue(), let byte = peek {
                if byte == UInt8(ascii: "}") {
                    position += 1
                    break
                }
                if byte == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard byte == UInt8(ascii: "\"") else { return found }
                let key = string()
                _ = skipToValue()
                position += 1  // :
                _ = skipToValue()
                found.append((key, position))
                skipValue()
            }
            return found
        }

        /// Reads the string starting at `position` (escapes decoded by `JSONSerialization` rules
        /// for the common ones; keys with other escapes keep their text, which never matches a
        /// key anyone looks up by name).
        mutating func string() -> String {
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
                    let hex = bytes[position..<min(bytes.count, position + 4)]
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

        /// Skips one value of any kind.
        mutating func skipValue() {
            var depth = 0
            while let byte = peek {
                switch byte {
                case UInt8(ascii: "\""):
                    _ = string()
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
    }
}
