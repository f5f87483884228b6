/// Named values in the order they were set: an asset's description (``AssetDescription``), or
/// an object inside one. Setting a name again replaces its value in place; setting `nil` leaves
/// the name out, so an optional fact is written `fields["index"] = frame.index.map(DescriptionValue.int)`.
///
/// ```swift
/// import Preload
///
/// var fields: DescriptionFields = ["width": 64, "height": 32]
/// fields["mipLevels"] = nil  // absent, not null
/// print(fields.names)  // ["width", "height"]
/// ```
public struct DescriptionFields: Sendable, Hashable, Encodable, ExpressibleByDictionaryLiteral {
    /// The names, in the order they were first set.
    public private(set) var names: [String] = []
    private var values: [String: DescriptionValue] = [:]

    /// No fields.
    public init() {}

    /// `elements`, in order (a later duplicate name replaces the earlier value).
    public init(dictionaryLiteral elements: (String, DescriptionValue)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value named `name`; setting `nil` removes it.
    public subscript(name: String) -> DescriptionValue? {
        get { values[name] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: name) == nil { names.append(name) }
            } else if values.removeValue(forKey: name) != nil {
                names.removeAll { $0 == name }
            }
        }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { names.isEmpty }

    /// The fields, in order.
    public var fields: [(name: String, value: DescriptionValue)] { names.map { ($0, values[$0]!) } }

    /// Encodes the fields as a JSON object, in order (an encoder that sorts keys sorts them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DescriptionKey.self)
        for name in names { try container.encode(values[name]!, forKey: DescriptionKey(name)) }
    }
}

/// A field's name as a coding key.
struct DescriptionKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
