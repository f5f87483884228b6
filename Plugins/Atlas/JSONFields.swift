import Foundation
import Preload

/// A JSON object read with `JSONSerialization`, whose accessors throw errors that name where the
/// problem is: `frame 'hero.png': 'frame': 'w' is missing or not a number`, prefixed with the
/// file's name when it is not the atlas's own descriptor (`sheet-1.json: ...`).
///
/// ``TexturePackerJSON`` gives each frame's and page's object as one, so that a plugin reading
/// what the atlas model passes over (Aseprite's `duration` and `frameTags`) reads it with the
/// same rules: lenient about structure (an absent optional member is `nil` or its default),
/// strict about data (a member of the wrong type is an ``AtlasError/malformed(file:detail:)``).
public struct JSONFields {
    /// The object's members, as `JSONSerialization` read them.
    public let values: [String: Any]
    let file: String
    /// The file's name in messages, for files other than the descriptor asked for.
    let origin: String?
    /// Where this object is (`frame 'hero.png'`, `'meta'`); `nil` for the top level.
    public let place: String?

    /// Parses `data` (the whole file) as a JSON object.
    static func parse(_ data: [UInt8], file: String, origin: String? = nil) throws -> JSONFields {
        let top = JSONFields(values: [:], file: file, origin: origin, place: nil)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(data))
        } catch {
            throw top.problem("not valid JSON: \(JSONSyntaxProblem.describe(error, in: data))")
        }
        guard let values = object as? [String: Any] else { throw top.problem("the top level is not a JSON object") }
        return JSONFields(values: values, file: file, origin: origin, place: nil)
    }

    /// Another object of the same file, `values`, found at `place`: its errors name that place
    /// (`slice 'hit'`), as this one's name its own.
    public func child(_ values: [String: Any], place: String) -> JSONFields {
        JSONFields(values: values, file: file, origin: origin, place: place)
    }

    /// Whether the member `key` is there and not `null`.
    public func has(_ key: String) -> Bool {
        guard let value = values[key] else { return false }
        // `null` reads as an NSNull. Its type, compared: `value is NSNull`, a dynamic cast, took
        // ~13,500 instructions, a quarter of loading a TexturePacker atlas (callgrind, issue 51).
        return type(of: value) != NSNull.self
    }

    /// The member `key`, an object.
    public func object(_ key: String) throws -> JSONFields {
        guard let object = values[key] as? [String: Any] else { throw problem("'\(key)' is missing or not an object") }
        return child(object, place: place.map { "\($0): '\(key)'" } ?? "'\(key)'")
    }

    /// The member `key`, an object, or `nil` when it is absent or `null`.
    public func optionalObject(_ key: String) throws -> JSONFields? {
        has(key) ? try object(key) : nil
    }

    /// The member `key`, a list of objects, each placed as `key[index]`; empty when it is absent
    /// or `null`.
    public func objects(_ key: String) throws -> [JSONFields] {
        guard has(key) else { return [] }
        guard let list = values[key] as? [[String: Any]] else { throw problem("'\(key)' is not a list of objects") }
        let prefix = place.map { "\($0): " } ?? ""
        return list.enumerated().map { child($1, place: "\(prefix)\(key)[\($0)]") }
    }

    /// The member `key`, a string.
    public func string(_ key: String) throws -> String {
        guard let string = values[key] as? String else { throw problem("'\(key)' is missing or not a string") }
        return string
    }

    /// The member `key`, an integer of at most ``AtlasDescription/largestNumber`` either way;
    /// JSON numbers with a zero fraction count (some exporters write `2.0`).
    public func int(_ key: String) throws -> Int {
        guard let number = values[key] as? NSNumber, !Self.isBoolean(number) else {
            throw problem("'\(key)' is missing or not a number")
        }
        let double = number.doubleValue
        guard double.rounded() == double, abs(double) <= Double(AtlasDescription.largestNumber) else {
            throw problem("'\(key)' is not a whole number of at most \(AtlasDescription.largestNumber): \(double)")
        }
        return Int(double)
    }

    /// The member `key`, a number, or a string of one (`meta.scale` is written both ways).
    public func double(_ key: String) throws -> Double {
        if let number = values[key] as? NSNumber, !Self.isBoolean(number) { return number.doubleValue }
        if let text = values[key] as? String, let number = Double(text) { return number }  // meta.scale: "1"
        throw problem("'\(key)' is missing or not a number")
    }

    /// The member `key`, `true` or `false`, or `fallback` when it is absent or `null`.
    public func bool(_ key: String, default fallback: Bool) throws -> Bool {
        guard has(key) else { return fallback }
        guard let number = values[key] as? NSNumber, Self.isBoolean(number) else { throw problem("'\(key)' is not true or false") }
        return number.boolValue
    }

    /// The error for `detail` found in this object: ``AtlasError/malformed(file:detail:)``, the
    /// detail after the object's place.
    public func problem(_ detail: String) -> AtlasError {
        let location = [origin, place].compactMap { $0 }.joined(separator: ": ")
        return .malformed(file: file, detail: location.isEmpty ? detail : "\(location): \(detail)")
    }

    /// JSONSerialization gives booleans as NSNumbers of type `c`; without this check the numbers
    /// 0 and 1 would pass for booleans and booleans for numbers.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
