import Preload

/// User data chunks (0x2020) with their properties maps, and the external files chunk (0x2008)
/// that names the extensions owning some of those maps.
extension AsepriteReader {
    /// Aseprite refuses properties nested deeper than this in vectors and maps.
    static let deepestProperties = 128

    /// A property this reader cannot read (a type past 19, nesting past 128 levels): as Aseprite
    /// does, the chunk's properties are passed over by their declared size, with a warning.
    struct UnreadProperties: Error {
        let reason: String
    }

    /// A user data chunk: its text (flag 1), colour (flag 2) and properties maps (flag 4), each
    /// map keyed by `extensions`' name for its key ("" for the user's own). The maps must end
    /// exactly where their declared size says; maps this reader cannot read are passed over,
    /// and `unread` says why.
    static func userData(
        _ body: ByteReader<ArraySlice<UInt8>>, extensions: [UInt32: String], chunk: String
    ) throws -> (data: AnimationUserData, unread: String?) {
        var reader = body, data = AnimationUserData()
        let flags = try reader.littleEndian(UInt32.self, "\(chunk)'s user data flags")
        if flags & 1 != 0 { data.text = try string(&reader, "\(chunk)'s text") }
        if flags & 2 != 0 {
            let rgba = Array(try reader.bytes(4, "\(chunk)'s colour"))
            data.color = AnimationUserData.Color(red: rgba[0], green: rgba[1], blue: rgba[2], alpha: rgba[3])
        }
        guard flags & 4 != 0 else { return (data, nil) }
        let start = reader.offset
        let size = Int(try reader.littleEndian(UInt32.self, "\(chunk)'s properties size"))
        guard size >= 8, size <= reader.count - start else {
            throw AsepriteError.malformed(
                detail: "\(chunk)'s properties maps say they have \(size) bytes; \(reader.count - start) are left in the chunk")
        }
        var maps = ByteReader(reader.bytes.dropFirst(start).prefix(size), at: 4)
        let count = try maps.littleEndian(UInt32.self, "\(chunk)'s properties map count")
        do {
            for number in 0..<count {
                let what = "\(chunk)'s properties map \(number + 1)"
                let key = try maps.littleEndian(UInt32.self, "\(what)'s key")
                let owner = key == 0 ? "" : (extensions[key] ?? "extension \(key)")
                guard case .map(let values) = try property(&maps, type: 0x12, depth: 0, what: what) else { continue }
                data.properties[owner, default: [:]].merge(values) { $1 }
            }
        } catch let skipped as UnreadProperties {
            data.properties = [:]
            return (data, skipped.reason)
        }
        guard maps.remaining == 0 else {
            throw AsepriteError.malformed(detail: "\(chunk)'s properties maps end \(maps.remaining) bytes before their declared \(size)")
        }
        return (data, nil)
    }

    /// A property value of `type`, nested `depth` levels deep.
    private static func property(
        _ reader: inout ByteReader<ArraySlice<UInt8>>, type: UInt16, depth: Int, what: String
    ) throws -> AnimationProperty {
        guard depth <= deepestProperties else { throw UnreadProperties(reason: "\(what) nests more than \(deepestProperties) levels deep") }
        func int<T: FixedWidthInteger>(_: T.Type) throws -> T { try reader.littleEndian(T.self, what) }
        switch type {
        case 0x01: return .bool(try int(UInt8.self) != 0)
        case 0x02: return .int(Int64(try int(Int8.self)))
        case 0x03: return .unsigned(UInt64(try int(UInt8.self)))
        case 0x04: return .int(Int64(try int(Int16.self)))
        case 0x05: return .unsigned(UInt64(try int(UInt16.self)))
        case 0x06: return .int(Int64(try int(Int32.self)))
        case 0x07: return .unsigned(UInt64(try int(UInt32.self)))
        case 0x08: return .int(try int(Int64.self))
        case 0x09: return .unsigned(try int(UInt64.self))
        case 0x0A: return .fixed(try int(Int32.self))
        case 0x0B: return .double(Double(Float(bitPattern: try int(UInt32.self))))
        case 0x0C: return .double(Double(bitPattern: try int(UInt64.self)))
        case 0x0D: return .string(try string(&reader, what))
        case 0x0E: return .point(x: Int(try int(Int32.self)), y: Int(try int(Int32.self)))
        case 0x0F: return .size(width: Int(try int(Int32.self)), height: Int(try int(Int32.self)))
        case 0x10:
            let (x, y) = (Int(try int(Int32.self)), Int(try int(Int32.self)))
            return .rect(x: x, y: y, width: Int(try int(Int32.self)), height: Int(try int(Int32.self)))
        case 0x11:
            let count = Int(try int(UInt32.self)), shared = try int(UInt16.self)
            // Each element takes at least a byte: a count past the bytes left is damage, not memory to reserve.
            guard count <= reader.remaining else {
                throw AsepriteError.malformed(detail: "\(what) is a vector of \(count) elements in \(reader.remaining) bytes")
            }
            return .vector(
                try (0..<count).map { index in
                    let type = shared == 0 ? try int(UInt16.self) : shared
                    return try property(&reader, type: type, depth: depth + 1, what: "\(what)'s element \(index + 1)")
                })
        case 0x12:
            var values = [String: AnimationProperty]()
            for _ in 0..<(try int(UInt32.self)) {
                let name = try string(&reader, "\(what)'s property name")
                let type = try int(UInt16.self)
                values[name] = try property(&reader, type: type, depth: depth + 1, what: "\(what)'s property '\(name)'")
            }
            return .map(values)
        case 0x13: return .uuid(Array(try reader.bytes(16, what)))
        default: throw UnreadProperties(reason: "\(what) has property type \(type) (1 to 19 are defined)")
        }
    }

    /// An external files chunk: the names of the entries (extensions, palettes, tilesets) by id.
    static func externalFiles(_ body: ByteReader<ArraySlice<UInt8>>, chunk: String) throws -> [UInt32: String] {
        var reader = body, names = [UInt32: String]()
        let count = try reader.littleEndian(UInt32.self, "\(chunk)'s entry count")
        try reader.skip(8, "\(chunk)'s reserved bytes")
        for number in 0..<count {
            let id = try reader.littleEndian(UInt32.self, "\(chunk)'s entry \(number + 1)'s id")
            try reader.skip(8, "\(chunk)'s entry \(number + 1)'s type and reserved bytes")
            names[id] = try string(&reader, "\(chunk)'s entry \(number + 1)'s name")
        }
        return names
    }
}
