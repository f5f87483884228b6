/// One value of Aseprite's custom properties (``AnimationUserData/properties``), in the
/// type the file stores it as.
public indirect enum AnimationProperty: Hashable, Sendable {
    /// `true` or `false`.
    case bool(Bool)
    /// A signed whole number (Aseprite's int8 to int64).
    case int(Int64)
    /// An unsigned whole number (Aseprite's uint8 to uint64).
    case unsigned(UInt64)
    /// A 16.16 fixed-point number, as its 32 stored bits (`value / 65536`).
    case fixed(Int32)
    /// A floating-point number (Aseprite's float and double).
    case double(Double)
    /// Text.
    case string(String)
    /// A point.
    case point(x: Int, y: Int)
    /// A size.
    case size(width: Int, height: Int)
    /// A rectangle.
    case rect(x: Int, y: Int, width: Int, height: Int)
    /// A list of values.
    case vector([AnimationProperty])
    /// Named values.
    case map([String: AnimationProperty])
    /// A UUID's 16 bytes.
    case uuid([UInt8])
}
