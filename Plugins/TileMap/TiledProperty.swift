/// A custom property's value, typed as Tiled types it: the same value whether the map was read
/// from TMX or from Tiled's JSON.
///
/// A class property's members are typed in TMX but not in JSON, which writes their bare values;
/// read from JSON, a member is a ``bool(_:)``, an ``int(_:)`` (a whole number), a ``float(_:)``
/// (any other number), a ``string(_:)`` or a nested ``class(type:members:)``, so a colour, file or
/// object member arrives from JSON as the string or number it is written as.
public enum TiledProperty: Hashable, Sendable, Codable {
    /// Text (`string`, Tiled's default type).
    case string(String)
    /// A whole number (`int`).
    case int(Int)
    /// A number (`float`).
    case float(Double)
    /// `true` or `false` (`bool`).
    case bool(Bool)
    /// A colour (`color`). An empty or unreadable colour is a ``string(_:)``, as Tiled saves it.
    case color(TiledColor)
    /// A path, as written: relative to the file that holds the property (`file`).
    case file(String)
    /// The ID of an object on the map, 0 for none (`object`).
    case object(Int)
    /// A value of a custom class (`class`): its type's name (`propertytype`, empty when the file
    /// does not name it) and the members the file sets.
    case `class`(type: String, members: [String: TiledProperty])

    /// The value as a number, for ``int(_:)`` and ``float(_:)``.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .float(let value): value
        default: nil
        }
    }

    /// The text of a ``string(_:)`` or ``file(_:)``.
    public var text: String? {
        switch self {
        case .string(let value), .file(let value): value
        default: nil
        }
    }
}

/// A map's, layer's, tileset's, tile's or object's custom properties, by name.
public typealias TiledProperties = [String: TiledProperty]

extension TiledProperty {
    /// The value of a property of type `type` written as `text` (TMX's attribute or content);
    /// `nil` when the text does not spell a value of that type. A type Tiled did not have when
    /// this was written reads as text; `class` is read where its members are.
    static func parsing(_ text: String, type: String) -> TiledProperty? {
        let trimmed = String(text.trimmingWhiteSpace)
        switch type {
        case "", "string": return .string(text)
        case "file": return .file(text)
        case "int": return Int(trimmed).map(TiledProperty.int) ?? Double(trimmed).flatMap { Int(exactly: $0) }.map(TiledProperty.int)
        case "float": return Double(trimmed).flatMap { $0.isFinite ? .float($0) : nil }
        case "bool": return trimmed == "true" || trimmed == "1" ? .bool(true) : trimmed == "false" || trimmed == "0" ? .bool(false) : nil
        case "color": return TiledColor(parsing: trimmed).map(TiledProperty.color) ?? .string(text)
        case "object": return Int(trimmed).map(TiledProperty.object)
        default: return .string(text)
        }
    }
}
