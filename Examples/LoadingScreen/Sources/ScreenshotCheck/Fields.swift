import Foundation

/// The `name="value"` fields of an XML start tag, or the `name=value` fields of a line of
/// BMFont's text form: as much of either format as this check reads, itself, rather than
/// through Preload's readers.
struct Fields {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    let values: [String: String]
    /// Where they were read, for messages.
    let place: String

    /// The fields of `text` (one tag or line).
    init(_ text: Substring, place: String) {
        var values: [String: String] = [:]
        for match in text.matches(of: #/(\w+)=(?:"([^"]*)"|([^\s"/>]+))/#) {
            values[String(match.1)] = String(match.2 ?? match.3 ?? "")
        }
        (self.values, self.place) = (values, place)
    }

    /// The fields of every start tag `<name ...>` in `text`, in order.
    static func tags(_ name: String, in text: String, file: String) -> [Fields] {
        text.matches(of: try! Regex("<\(name)\\b([^>]*)>")).map { Fields($0.output[1].substring ?? "", place: "<\(name)> in \(file)") }
    }

    subscript(_ key: String) -> String? { values[key] }

    /// The whole number `key` holds; `fallback` if absent, an error if neither.
    func int(_ key: String, or fallback: Int? = nil) throws -> Int {
        guard let value = values[key].flatMap({ Int($0) }) ?? fallback else { throw Missing(description: "\(place): no number \(key)") }
        return value
    }

    func string(_ key: String) throws -> String {
        guard let value = values[key] else { throw Missing(description: "\(place): no \(key)") }
        return value
    }
}
