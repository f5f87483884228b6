import Foundation

/// Why `JSONSerialization` refused a text, said with where: Foundation's own reason (its
/// `NSDebugDescription`, "Invalid value around character 12.") with the line and column of that
/// byte, or, for a text that ends inside a value (a file cut short), the byte, line and column
/// where it ends. The error's `localizedDescription` ("The data couldn't be read because it
/// isn't in the correct format.") says neither.
///
/// The plugins that parse JSON with `JSONSerialization` word their "not valid JSON" errors
/// with it.
public enum JSONSyntaxProblem {
    /// `error`, which `JSONSerialization` threw reading `text`, in words with its position:
    /// `Invalid value around character 12, at line 2, column 5`, `the text ends inside a value,
    /// at line 40, column 3 (after 1234 bytes): cut short?`.
    public static func describe(_ error: any Error, in text: [UInt8]) -> String {
        let reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String)?.trimmingCharacters(in: .init(charactersIn: ". "))
        guard let reason, !reason.isEmpty else {
            return "\(error.localizedDescription) (\(text.count) bytes)"
        }
        if reason.lowercased().contains("end of file") {
            return "the text ends inside a value, at \(place(of: text.count, in: text)) (after \(text.count) bytes): cut short?"
        }
        guard !reason.contains("line"), let offset = lastNumber(in: reason), offset <= text.count else { return reason }
        return "\(reason), at \(place(of: offset, in: text))"
    }

    /// `line L, column C` of byte `offset` of `text` (both from 1; a column counts bytes).
    private static func place(of offset: Int, in text: [UInt8]) -> String {
        let before = text[..<offset]
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return "line \(line), column \(offset - lineStart + 1)"
    }

    /// The last run of digits in `text` as a number (Foundation ends its reasons with the byte
    /// they are at: `around character 12`, `at 9`).
    private static func lastNumber(in text: String) -> Int? {
        let digits = text.reversed().drop { !$0.isNumber }.prefix { $0.isNumber }
        return digits.isEmpty ? nil : Int(String(digits.reversed()))
    }
}
