import Foundation
import Preload

/// A TMJ or TSJ object (parsed by `JSONSerialization`) as a ``TiledNode``: values are its keys,
/// lists its arrays.
struct TMJNode: TiledNode {
    let values: [String: Any]
    let file: String
    let place: String
    /// The document's long arrays of tile IDs, taken out before Foundation parsed it.
    private let tileArrays: JSONTileArrays

    private init(_ values: [String: Any], file: String, place: String = "", tileArrays: JSONTileArrays) {
        self.values = values
        self.file = file
        self.place = place
        self.tileArrays = tileArrays
    }

    /// The top-level object of `bytes`, or why it is not one.
    static func parse(_ bytes: [UInt8], file: String) throws -> TMJNode {
        let (json, tileArrays) = JSONTileArrays.extract(bytes)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            // Where the file itself goes wrong (the text parsed had its tile arrays taken out).
            var cause = error
            do { _ = try JSONSerialization.jsonObject(with: Data(bytes)) } catch { cause = error }
            throw TileMapError.malformed(file: file, detail: "not valid JSON: \(JSONSyntaxProblem.describe(cause, in: bytes))")
        }
        guard let values = object as? [String: Any] else {
            throw TileMapError.notATileMap(file: file, detail: "the top level of the JSON is not an object")
        }
        return TMJNode(values, file: file, tileArrays: tileArrays)
    }

    func at(_ place: String) -> TMJNode { TMJNode(values, file: file, place: place, tileArrays: tileArrays) }

    private func node(_ values: [String: Any]) -> TMJNode { TMJNode(values, file: file, place: place, tileArrays: tileArrays) }

    /// `value` when it is present and not JSON's `null`.
    private func value(_ key: String) -> Any? {
        guard let value = values[key], !(value is NSNull) else { return nil }
        return value
    }

    func string(_ key: String) throws -> String? {
        switch value(key) {
        case nil: return nil
        case let text as String: return text
        case let number as NSNumber where !Self.isBoolean(number): return Self.text(of: number.doubleValue)  // "version": 1.2
        default: throw problem("'\(key)' is not text")
        }
    }

    func number(_ key: String) throws -> Double? {
        switch value(key) {
        case nil: return nil
        case let number as NSNumber where !Self.isBoolean(number): return number.doubleValue
        case let text as String:
            guard let number = Double(text.trimmingWhiteSpace) else { throw problem("'\(key)' is '\(text)', which is not a number") }
            return number
        default: throw problem("'\(key)' is not a number")
        }
    }

    func flag(_ key: String) throws -> Bool? {
        switch value(key) {
        case nil: return nil
        case let number as NSNumber where Self.isBoolean(number) || number == 0 || number == 1: return number.boolValue
        default: throw problem("'\(key)' is neither true nor false")
        }
    }

    func properties() throws -> TiledProperties {
        switch value("properties") {
        case nil: return [:]
        case let list as [Any]:
            var properties: TiledProperties = [:]
            for entry in list {
                guard let entry = entry as? [String: Any], let name = entry["name"] as? String else {
                    throw problem("a property is not an object with a name")
                }
                properties[name] = try property(
                    name, type: entry["type"] as? String ?? "string", value: entry["value"], className: entry["propertytype"])
            }
            return properties
        case let table as [String: Any]:  // before Tiled 1.2: values by name, types by name in "propertytypes"
            let types = values["propertytypes"] as? [String: Any] ?? [:]
            return try table.reduce(into: [:]) { properties, entry in
                properties[entry.key] = try property(entry.key, type: types[entry.key] as? String ?? "", value: entry.value, className: nil)
            }
        default: throw problem("'properties' is neither a list nor an object")
        }
    }

    /// A property of `type` whose JSON value is `value`. An untyped one (a class's member, or an
    /// old file's property without a type) is typed by its value.
    private func property(_ name: String, type: String, value: Any?, className: Any?) throws -> TiledProperty {
        switch (type, value) {
        case ("class", let members):
            return .class(type: className as? String ?? "", members: try classMembers(members as? [String: Any] ?? [:]))
        case ("", let members as [String: Any]):
            return .class(type: "", members: try classMembers(members))
        case (_, let number as NSNumber) where Self.isBoolean(number):
            guard type == "bool" || type == "" else { break }
            return .bool(number.boolValue)
        case (_, let number as NSNumber):
            let whole = Int(exactly: number.doubleValue)
            switch type {
            case "int", "object": if let whole { return type == "int" ? .int(whole) : .object(whole) }
            case "float" where number.doubleValue.isFinite: return .float(number.doubleValue)
            case "": return whole.map(TiledProperty.int) ?? .float(number.doubleValue)
            default: return TiledProperty.parsing(Self.text(of: number.doubleValue), type: type) ?? .string(number.stringValue)
            }
        case (_, let text as String):
            if let parsed = TiledProperty.parsing(text, type: type) { return parsed }
        case (_, nil):
            return TiledProperty.parsing("", type: type) ?? .string("")
        default: break
        }
        throw problem("property '\(name)' has a value that is not of its type \(type)")
    }

    /// A class value's members, each typed by its value (JSON writes no member types).
    private func classMembers(_ members: [String: Any]) throws -> TiledProperties {
        try members.reduce(into: [:]) { result, member in
            result[member.key] = try property(member.key, type: "", value: member.value, className: nil)
        }
    }

    func list(_ key: String, element: String) throws -> [TMJNode] {
        switch value(key) {
        case nil: return []
        case let list as [Any]:
            return try list.map { item in
                guard let item = item as? [String: Any] else { throw problem("'\(key)' holds something that is not an object") }
                return node(item)
            }
        case let table as [String: Any]:  // before Tiled 1.2, "tiles" was keyed by tile ID
            return try table.sorted { $0.key < $1.key }.map { id, item in
                guard var item = item as? [String: Any], let number = Int(id) else { throw problem("'\(key)' holds '\(id)', not a tile") }
                item["id"] = item["id"] ?? number
                return node(item)
            }
        default: throw problem("'\(key)' is not a list")
        }
    }

    func child(_ key: String) throws -> TMJNode? {
        switch value(key) {
        case nil: return nil
        case let object as [String: Any]: return node(object)
        default: throw problem("'\(key)' is not an object")
        }
    }

    func animationFrames() throws -> [TMJNode] { try list("animation", element: "frame") }

    func layers() throws -> [(kind: String, node: TMJNode)] {
        try list("layers", element: "").map { layer in (try layer.string("type") ?? "", layer) }
    }

    func image() throws -> TMJNode? {
        guard let source = try string("image"), !source.isEmpty else { return nil }
        let keys: [String: Any?] = [
            "source": source, "width": values["imagewidth"], "height": values["imageheight"], "trans": values["transparentcolor"],
        ]
        return node(keys.compactMapValues { $0 })
    }

    func layerData() throws -> (encoding: String, compression: String, data: LayerData?, chunks: [(node: TMJNode, data: LayerData)]) {
        let encoding = try string("encoding") ?? "csv", compression = try string("compression") ?? ""
        guard encoding == "csv" || encoding == "base64" else {
            throw TileMapError.unsupported(file: file, detail: "\(place): layer data encoding '\(encoding)'")
        }
        guard let method = LayerCompression(rawValue: compression) else {
            throw TileMapError.unsupported(file: file, detail: "\(place): compression '\(compression)'")
        }
        func payload(_ data: Any?) throws -> LayerData {
            switch data {
            case let text as String:
                if let numbers = tileArrays.array(named: text) { return .jsonArray(numbers) }
                return encoding == "base64" ? .base64(text, method) : .csv(text)
            case let numbers as [Any]:
                return .gids(
                    try numbers.map { item in
                        guard let number = item as? NSNumber, !Self.isBoolean(number), let gid = UInt32(exactly: number.doubleValue) else {
                            throw LayerDataProblem("'\(item)' in the data is not a global tile ID")
                        }
                        return gid
                    })
            default: throw LayerDataProblem("the data is neither a list of tile IDs nor text")
            }
        }
        if let chunks = value("chunks") {
            guard let chunks = chunks as? [Any] else { throw problem("'chunks' is not a list") }
            return (
                encoding, compression, nil,
                try chunks.map { chunk in
                    guard let chunk = chunk as? [String: Any] else { throw problem("a chunk is not an object") }
                    return (node(chunk), try payload(chunk["data"]))
                }
            )
        }
        return (encoding, compression, try value("data").map(payload), [])
    }

    func isMarked(_ marker: String) throws -> Bool { try flag(marker) ?? false }

    func points(_ key: String) throws -> [SIMD2<Double>]? {
        guard let list = value(key) else { return nil }
        guard let points = list as? [Any] else { throw problem("'\(key)' is not a list of points") }
        return try points.map { item in
            guard let point = item as? [String: Any] else { throw problem("a \(key) point is not an object") }
            let node = node(point)
            return SIMD2(try node.double("x", default: 0), try node.double("y", default: 0))
        }
    }

    func text() throws -> (node: TMJNode, content: String)? {
        guard let text = try child("text") else { return nil }
        return (text, try text.string("text") ?? "")
    }

    /// `number` as JSON would write it: `2` for a whole number, `2.5` otherwise.
    private static func text(of number: Double) -> String {
        if let whole = Int(exactly: number) { return String(whole) }
        return String(number)
    }

    /// JSONSerialization gives booleans as NSNumbers of type `c`; without this check the numbers
    /// 0 and 1 would pass for booleans and booleans for numbers.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        number.objCType.pointee == CChar(UInt8(ascii: "c"))
    }
}
