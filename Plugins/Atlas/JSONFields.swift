import Foundation

/// A JSON object read with JSONSerialization, whose accessors throw errors that name where the
/// problem is: `frame 'hero.png': 'frame': 'w' is missing or not a number`, prefixed with the
/// file's name when it is not the atlas's own descriptor (`sheet-1.json: ...`).
struct JSONFields {
    let values: [String: Any]
    let file: String
    /// The file's name in messages, for files other than the descriptor asked for.
    let origin: String?
    /// Where this object is (`frame 'hero.png'`, `'meta'`); `nil` for the top level.
    let place: String?

    /// Parses `data` (the whole file) as a JSON object.
    static func parse(_ data: [UInt8], file: String, origin: String? = nil) throws -> JSONFields {
        let top = JSONFields(values: [:], file: file, origin: origin, place: nil)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(data))
        } catch {
            throw top.problem("not valid JSON (\(error.localizedDescription))")
        }
        guard let values = object as? [String: Any] else { throw top.problem("the top level is not a JSON object") }
        return JSONFields(values: values, file: file, origin: origin, place: nil)
    }

    /// Another object of the same file, found at `place`.
    func child(_ values: [String: Any], place: String) -> JSONFields {
        JSONFields(values: values, file: file, origin: origin, place: place)
    }

    func has(_ key: String) -> Bool { values[key] != nil && !(values[key] is NSNull) }

    func object(_ key: String) throws -> JSONFields {
        guard let object = values[key] as? [String: Any] else { throw problem("'\(key)' is missing or not an object") }
        return child(object, place: place.map { "\($0): '\(key)'" } ?? "'\(key)'")
    }

    func optionalObject(_ key: String) throws -> JSONFields? {
        has(key) ? try object(key) : nil
    }

    func string(_ key: String) throws -> String {
        guard let string = values[key] as? String else { throw problem("'\(key)' is missing or not a string") }
        return string
    }

    /// An integer; JSON numbers with a zero fraction count (some exporters write `2.0`).
    func int(_ key: String) throws -> Int {
        guard let number = values[key] as? NSNumber, !Self.isBoolean(number) else {
            throw problem("'\(key)' is missing or not a number")
        }
        let double = number.doubleValue
        guard double.rounded() == double, abs(double) <= Double(AtlasDescription.largestNumber) else {
            throw problem("'\(key)' is not a whole number of at most \(AtlasDescription.largestNumber): \(double)")
        }
        return Int(double)
    }

    func double(_ key: String) throws -> Double {
        if let number = values[key] as? NSNumber, !Self.isBoolean(number) { return number.doubleValue }
        if let text = values[key] as? String, let number = Double(text) { return number }  // meta.scale: "1"
        throw problem("'\(key)' is missing or not a number")
    }

    func bool(_ key: String, default fallback: Bool) throws -> Bool {
        guard has(key) else { return fallback }
        guard let number = values[key] as? NSNumber, Self.isBoolean(number) else { throw problem("'\(key)' is not true or false") }
        return number.boolValue
    }

    func problem(_ detail: String) -> AtlasError {
        let location = [origin, place].compactMap { $0 }.joined(separator: ": ")
        return .malformed(file: file, detail: location.isEmpty ? detail : "\(location): \(detail)")
    }

    /// JSONSerialization gives booleans as NSNumbers of type `c`; without this check the numbers
    /// 0 and 1 would pass for booleans and booleans for numbers.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
