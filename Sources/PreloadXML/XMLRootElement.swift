/// The name of an XML document's root element, read off its first bytes without parsing it:
/// what plugins that claim XML files by content go by (BMFont's `<font>`, Tiled's `<map>`), so
/// that an SVG holding a `<font>` in its `<defs>` is not taken for a font.
public enum XMLRootElement {
    /// The root element's name in `prefix` (a document's first bytes), after a UTF-8 byte-order
    /// mark, white space, the XML declaration, processing instructions, comments and a
    /// `<!DOCTYPE ...>`; `""` when `prefix` is not XML there; `nil` when it ends before the name
    /// does (read more of the file to tell).
    public static func name(in prefix: [UInt8]) -> String? {
        var index = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func starts(_ text: String) -> Bool { prefix[index...].starts(with: text.utf8) }
        /// Moves past the first `end` from `index`; false when the prefix ends first.
        func skip(past end: String) -> Bool {
            guard let range = prefix[index...].firstRange(of: Array(end.utf8)) else { return false }
            index = range.upperBound
            return true
        }
        while true {
            while index < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[index]) { index += 1 }
            guard index + 1 < prefix.count else { return nil }
            guard prefix[index] == UInt8(ascii: "<") else { return "" }
            if starts("<?") {
                guard skip(past: "?>") else { return nil }
            } else if starts("<!--") {
                guard skip(past: "-->") else { return nil }
            } else if starts("<!") {
                // A DOCTYPE, with its internal subset in brackets, if any.
                var depth = 0
                while index < prefix.count, !(prefix[index] == UInt8(ascii: ">") && depth == 0) {
                    if prefix[index] == UInt8(ascii: "[") { depth += 1 }
                    if prefix[index] == UInt8(ascii: "]") { depth -= 1 }
                    index += 1
                }
                guard index < prefix.count else { return nil }
                index += 1
            } else {
                let start = index + 1
                var end = start
                while end < prefix.count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(prefix[end]) { end += 1 }
                guard end < prefix.count else { return nil }
                return String(decoding: prefix[start..<end], as: UTF8.self)
            }
        }
    }
}
