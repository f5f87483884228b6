import Foundation
import Preload

extension String {
    /// The text with control characters written out (`\n`, `\t`, `\u{1B}`), for the readable
    /// output: a name inside a downloaded pack may hold a newline that would fake a line of the
    /// report, or an escape sequence the terminal would obey. JSON output escapes them itself.
    var visibleInTerminal: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var text = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where Self.isControl(scalar): text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// C0 controls, DEL and C1 controls.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

/// `count` and the noun, singular for one: `1 asset`, `2 assets`, `1 pack entry`, `3 pack entries`
/// (`plural` defaults to the noun plus `s`), as descriptions count (`AssetDescription.counted`).
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    AssetDescription.counted(count, noun, plural: plural)
}

/// Writes `Error: MESSAGE` on stderr, control characters written out: spelled as the argument
/// parser spells its own errors, so that every error line of the command reads the same.
func printError(_ message: Any) {
    printDiagnostic("Error", message)
}

/// Writes `LEVEL: MESSAGE` on stderr (`warning: ...`), control characters written out.
func printDiagnostic(_ level: String, _ message: Any) {
    FileHandle.standardError.write(Data("\(level): \("\(message)".visibleInTerminal)\n".utf8))
}
