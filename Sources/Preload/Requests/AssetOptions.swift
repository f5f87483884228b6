/// A key for one loader option stored in ``AssetOptions``.
///
/// A plugin's options type is its own key, so one name serves to set and read it:
///
/// ```swift
/// import Preload
///
/// // A plugin's options (a text plugin's, say), their own key:
/// struct TextDecodeOptions: AssetOptionKey, Hashable {
///     static let defaultValue = TextDecodeOptions()
///     var trimsWhitespace = false
/// }
/// var options = AssetOptions()
/// options[TextDecodeOptions.self].trimsWhitespace = true
/// ```
///
/// A separate key type (an `enum` with a `defaultValue` of another type) works too, the way
/// SwiftUI declares environment values.
public protocol AssetOptionKey: Sendable {
    /// The value stored under this key.
    associatedtype Value: Hashable & Sendable
    /// The value a request has when nobody set one.
    static var defaultValue: Value { get }
}

/// Loader options attached to an ``AssetRequest``: a typed bag that any plugin can extend with
/// its own ``AssetOptionKey`` without the core knowing about it.
///
/// Two requests for the same file with equal options are merged into one load.
public struct AssetOptions: Hashable, Sendable {
    private var values: [ObjectIdentifier: any Hashable & Sendable] = [:]

    /// Options with every key at its default value.
    public init() {}

    /// The value for `key`, or the key's default when none was set.
    public subscript<Key: AssetOptionKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether no value was set for any key (every option at its default).
    package var isEmpty: Bool { values.isEmpty }

    /// Whether a value was set for `key` (as opposed to the default applying).
    public func contains<Key: AssetOptionKey>(_ key: Key.Type) -> Bool {
        values[ObjectIdentifier(key)] != nil
    }

    /// A copy with `value` set for `key`.
    public func with<Key: AssetOptionKey>(_ key: Key.Type, _ value: Key.Value) -> AssetOptions {
        var copy = self
        copy[key] = value
        return copy
    }

    public static func == (lhs: AssetOptions, rhs: AssetOptions) -> Bool {
        guard lhs.values.count == rhs.values.count else { return false }
        if lhs.values.isEmpty { return true }
        for (key, value) in lhs.values {
            guard let other = rhs.values[key], AnyHashable(value) == AnyHashable(other) else {
                return false
            }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values.count)
        if values.isEmpty { return }
        // Order-independent: the dictionary's iteration order is not stable between instances.
        var combined = 0
        for (key, value) in values {
            var entry = Hasher()
            entry.combine(key)
            entry.combine(AnyHashable(value))
            combined ^= entry.finalize()
        }
        hasher.combine(combined)
    }
}
