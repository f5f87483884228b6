/// One value of an asset's description (``AssetDescription/fields``): what JSON can hold, so
/// that `preload --json` prints it as it is. Integers and floating-point numbers stay apart
/// (`2` is not `2.0`), and an object keeps its fields in the order given.
///
/// ```swift
/// import Preload
///
/// var fields = DescriptionFields()
/// fields["colors"] = .int(16)
/// fields["title"] = "dawn"
/// fields["swatches"] = .array([.object(["hex": "#ff8800"])])
/// ```
public enum DescriptionValue: Sendable, Hashable, Encodable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    /// Text.
    case string(String)
    /// A whole number.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A list of values.
    case array([DescriptionValue])
    /// Named values, in order.
    case object(DescriptionFields)

    /// A string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A whole number.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point number.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// Encodes the value as the JSON value it stands for.
    public func encode(to encoder: any Encoder) throws {
        func single(_ value: some Encodable) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
        switch self {
        case .string(let value): try single(value)
        case .int(let value): try single(value)
        case .double(let value): try single(value)
        case .bool(let value): try single(value)
        case .array(let values): try single(values)
        case .object(let fields): try fields.encode(to: encoder)
        }
    }
}
