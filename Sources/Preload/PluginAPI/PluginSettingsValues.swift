import Foundation

/// The members of one plugin's settings object, read by type: what a ``PluginSettingsReader``
/// reads, from a manifest entry's `"options": {"png": {...}}` (parsed JSON) or from the command
/// line's `--set png.alpha=premultiplied` (text). Reading a member of the wrong type throws a
/// ``PluginSettingsProblem`` naming it; members nobody read are reported as unknown.
///
/// Text values are read as the type asked for: `"2"` as a whole number, `"true"` as a Boolean,
/// `"a.png,b.png"` as a list; a JSON value must have that type already.
public final class PluginSettingsValues {
    private let values: [String: Any]
    private let isText: Bool
    private var read = Set<String>()
    private var objects: [String: PluginSettingsValues] = [:]

    /// The members of a parsed JSON object (`JSONSerialization`'s dictionaries, numbers,
    /// strings and arrays).
    public init(_ values: [String: Any]) {
        self.values = values
        self.isText = false
    }

    /// The members given as text, `name` to value (`["alpha": "premultiplied"]`); a name with
    /// dots (`grid.frameWidth`) is a member of the object its first part names.
    public init(text: [String: String]) {
        var nested: [String: [String: String]] = [:]
        var values: [String: Any] = [:]
        for (name, value) in text {
            if let dot = name.firstIndex(of: ".") {
                nested[String(name[..<dot]), default: [:]][String(name[name.index(after: dot)...])] = value
            } else {
                values[name] = value
            }
        }
        for (name, members) in nested { values[name] = PluginSettingsValues(text: members) }
        self.values = values
        self.isText = true
    }

    /// The members given, sorted.
    public var keys: [String] { values.keys.sorted() }

    /// The members given that no reader read, sorted (`grid.extra` for a member of a nested
    /// object).
    public var unreadKeys: [String] {
        keys.flatMap { key -> [String] in
            guard read.contains(key) else { return [key] }
            return objects[key]?.unreadKeys.map { key + "." + $0 } ?? []
        }
    }

    /// The member `key` as a Boolean; `nil` when absent.
    public func bool(_ key: String) throws(PluginSettingsProblem) -> Bool? {
        try member(key, "true or false") { value in
            if isText { return ["true": true, "false": false][value as? String ?? ""] }
            guard let number = value as? NSNumber, Self.isBoolean(number) else { return nil }
            return number.boolValue
        }
    }

    /// The member `key` as a whole number in `range`; `nil` when absent.
    public func int(_ key: String, in range: ClosedRange<Int> = 0...Int(Int32.max)) throws(PluginSettingsProblem) -> Int? {
        try member(key, "a whole number from \(range.lowerBound) to \(range.upperBound)") { value in
            let int: Int?
            if isText {
                int = (value as? String).flatMap { Int($0) }
            } else {
                guard let number = value as? NSNumber, !Self.isBoolean(number) else { return nil }
                int = Int(exactly: number.doubleValue)
            }
            guard let int, range.contains(int) else { return nil }
            return int
        }
    }

    /// The member `key` as one of `choices`; `nil` when absent.
    public func string(_ key: String, oneOf choices: [String]) throws(PluginSettingsProblem) -> String? {
        try member(key, "one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))") { value in
            guard let string = value as? String, choices.contains(string) else { return nil }
            return string
        }
    }

    /// The member `key` as any string; `nil` when absent.
    public func string(_ key: String) throws(PluginSettingsProblem) -> String? {
        try member(key, "a string") { $0 as? String }
    }

    /// The member `key` as a list of strings (as text: separated by commas); `nil` when absent.
    public func strings(_ key: String) throws(PluginSettingsProblem) -> [String]? {
        try member(key, "a list of strings") { value in
            if isText { return (value as? String)?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            return value as? [String]
        }
    }

    /// The member `key` as an object of its own, whose members are read the same way (and
    /// reported as `key.member` when nobody reads them); `nil` when absent.
    public func object(_ key: String) throws(PluginSettingsProblem) -> PluginSettingsValues? {
        let object = try member(key, "an object") { value -> PluginSettingsValues? in
            if let nested = value as? PluginSettingsValues { return nested }
            return (value as? [String: Any]).map(PluginSettingsValues.init)
        }
        objects[key] = object
        return object
    }

    /// `JSONSerialization` gives booleans as numbers of type `c`.
    private static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    private func member<T>(_ key: String, _ expected: String, _ convert: (Any) -> T?) throws(PluginSettingsProblem) -> T? {
        read.insert(key)
        guard let value = values[key] else { return nil }
        guard let converted = convert(value) else { throw PluginSettingsProblem("'\(key)' must be \(expected)") }
        return converted
    }
}

/// Why a plugin's settings could not be read: `'padding' must be a whole number from 0 to
/// 4096`. The manifest adds the entry it is in, the command the `--set` it came from.
public struct PluginSettingsProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the member.
    public let message: String

    /// A problem described by `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
