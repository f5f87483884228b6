import Foundation
import Preload
import PreloadAtlas

/// The JSON of a baked animation entry (``BakedAnimation``): its page entries and tags (version
/// 1), and its slices and user data (version 2), coded as docs/bake-format.md ("Animation")
/// gives them.
struct BakedAnimationTables: Codable, Equatable {
    /// A page: the entry holding its texture.
    struct Page: Codable, Equatable {
        var entry: Int
    }

    /// A tag, field for field ``AnimationTag`` (`direction` its raw value).
    struct Tag: Codable, Equatable {
        var name: String
        var from: Int
        var to: Int
        var direction: String
        var `repeat`: Int
        var userData: UserData?
    }

    /// ``AnimationUserData``: each key only when given.
    struct UserData: Codable, Equatable {
        var text: String?
        /// `#rrggbbaa`.
        var color: String?
        var properties: [String: [String: Property]]?
    }

    /// An ``AnimationProperty``: an object of one key naming its type; 64-bit numbers as
    /// decimal strings, exact.
    enum Property: Equatable {
        case bool(Bool), int(String), unsigned(String), fixed(Int32), double(Double), string(String)
        case point([Int]), size([Int]), rect([Int]), vector([Property]), map([String: Property]), uuid(String)
    }

    /// ``AnimationSlice``.
    struct Slice: Codable, Equatable {
        struct Key: Codable, Equatable {
            var frame: Int
            /// `[x, y, w, h]`.
            var bounds: [Int]
            var center: [Int]?
            /// `[x, y]`.
            var pivot: [Int]?
        }

        var name: String
        var keys: [Key]
        var userData: UserData?
    }

    var pages: [Page]
    var tags: [Tag]
    var slices: [Slice]?
    var userData: UserData?

    /// Whether the tables need version 2: slices or user data.
    var needsVersion2: Bool { slices != nil || userData != nil || tags.contains { $0.userData != nil } }

    /// The tables of `animation`, its pages in the entries `pageEntries`.
    init(_ animation: SpriteAnimation, pageEntries: [Int]) {
        pages = pageEntries.map { Page(entry: $0) }
        tags = animation.tags.map {
            Tag(name: $0.name, from: $0.from, to: $0.to, direction: $0.direction.rawValue, repeat: $0.repeatCount, userData: UserData($0.userData))
        }
        slices =
            animation.slices.isEmpty
            ? nil
            : animation.slices.map { slice in
                Slice(
                    name: slice.name,
                    keys: slice.keys.map {
                        Slice.Key(
                            frame: $0.frame, bounds: Self.rect($0.bounds), center: $0.center.map(Self.rect), pivot: $0.pivot.map { [$0.x, $0.y] })
                    }, userData: UserData(slice.userData))
            }
        userData = UserData(animation.userData)
    }

    private static func rect(_ rect: PixelRect) -> [Int] { [rect.x, rect.y, rect.width, rect.height] }

    /// The tags, slices and user data the tables hold, for an animation of `frameCount` frames;
    /// throws `malformed` naming what does not read.
    func model(
        frameCount: Int, malformed: (String) -> any Error
    ) throws -> (
        tags: [AnimationTag], slices: [AnimationSlice], userData: AnimationUserData
    ) {
        let tags = try self.tags.map { tag in
            guard let direction = AnimationTag.Direction(rawValue: tag.direction) else {
                throw malformed("animation tag '\(tag.name)' has an unknown direction '\(tag.direction)'")
            }
            guard tag.from >= 0, tag.from <= tag.to, tag.to < frameCount, tag.repeat >= 0 else {
                throw malformed(
                    "animation tag '\(tag.name)' runs from frame \(tag.from) to \(tag.to) (repeat \(tag.repeat)), past the \(frameCount) frames")
            }
            return AnimationTag(
                name: tag.name, from: tag.from, to: tag.to, direction: direction, repeatCount: tag.repeat,
                userData: try tag.userData?.model(malformed: malformed) ?? AnimationUserData())
        }
        let slices = try (self.slices ?? []).map { slice in
            let keys = try slice.keys.map { key in
                func rect(_ values: [Int], _ what: String) throws -> PixelRect {
                    guard values.count == 4, values[2] >= 0, values[3] >= 0 else {
                        throw malformed("animation slice '\(slice.name)': a key's \(what) is not [x, y, w, h] of a size not negative")
                    }
                    return PixelRect(x: values[0], y: values[1], width: values[2], height: values[3])
                }
                guard key.frame >= 0, key.pivot.map({ $0.count == 2 }) ?? true else {
                    throw malformed("animation slice '\(slice.name)': a key at frame \(key.frame) or its pivot does not read")
                }
                return AnimationSlice.Key(
                    frame: key.frame, bounds: try rect(key.bounds, "bounds"), center: try key.center.map { try rect($0, "center") },
                    pivot: key.pivot.map { AnimationSlice.Point(x: $0[0], y: $0[1]) })
            }
            return AnimationSlice(name: slice.name, keys: keys, userData: try slice.userData?.model(malformed: malformed) ?? AnimationUserData())
        }
        return (tags, slices, try userData?.model(malformed: malformed) ?? AnimationUserData())
    }
}

extension BakedAnimationTables.UserData {
    /// `userData` coded, or `nil` when it is empty.
    init?(_ userData: AnimationUserData) {
        guard !userData.isEmpty else { return nil }
        text = userData.text
        color = userData.color?.description
        properties = userData.properties.isEmpty ? nil : userData.properties.mapValues { $0.mapValues(BakedAnimationTables.Property.init) }
    }

    /// The user data coded here.
    func model(malformed: (String) -> any Error) throws -> AnimationUserData {
        var userData = AnimationUserData(text: text, properties: try (properties ?? [:]).mapValues { try $0.mapValues { try $0.model(malformed) } })
        if let color {
            guard color.utf8.count == 9, let parsed = AnimationUserData.Color(hex: color) else {
                throw malformed("a user data colour is not #rrggbbaa: '\(color)'")
            }
            userData.color = parsed
        }
        return userData
    }
}

extension BakedAnimationTables.Property {
    /// `property` coded.
    init(_ property: AnimationProperty) {
        switch property {
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(String(value))
        case .unsigned(let value): self = .unsigned(String(value))
        case .fixed(let value): self = .fixed(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .point(let x, let y): self = .point([x, y])
        case .size(let width, let height): self = .size([width, height])
        case .rect(let x, let y, let width, let height): self = .rect([x, y, width, height])
        case .vector(let values): self = .vector(values.map(Self.init))
        case .map(let values): self = .map(values.mapValues(Self.init))
        case .uuid(let bytes): self = .uuid(bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
        }
    }

    /// The property coded here; throws `malformed` for a number or list that does not read.
    func model(_ malformed: (String) -> any Error) throws -> AnimationProperty {
        func numbers(_ values: [Int], _ count: Int, _ what: String) throws -> [Int] {
            guard values.count == count else { throw malformed("a \(what) property of \(values.count) numbers") }
            return values
        }
        switch self {
        case .bool(let value): return .bool(value)
        case .int(let text):
            guard let value = Int64(text) else { throw malformed("an int property that is not one: '\(text)'") }
            return .int(value)
        case .unsigned(let text):
            guard let value = UInt64(text) else { throw malformed("an unsigned property that is not one: '\(text)'") }
            return .unsigned(value)
        case .fixed(let value): return .fixed(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .point(let values):
            let xy = try numbers(values, 2, "point")
            return .point(x: xy[0], y: xy[1])
        case .size(let values):
            let size = try numbers(values, 2, "size")
            return .size(width: size[0], height: size[1])
        case .rect(let values):
            let rect = try numbers(values, 4, "rect")
            return .rect(x: rect[0], y: rect[1], width: rect[2], height: rect[3])
        case .vector(let values): return .vector(try values.map { try $0.model(malformed) })
        case .map(let values): return .map(try values.mapValues { try $0.model(malformed) })
        case .uuid(let text):
            guard let bytes = AnimationUserData.Color.hexBytes(Substring(text)) else {
                throw malformed("a uuid property that is not hex digits: '\(text)'")
            }
            return .uuid(bytes)
        }
    }
}

extension BakedAnimationTables.Property: Codable {
    private enum Key: String, CodingKey {
        case bool, int, unsigned, fixed, double, string, point, size, rect, vector, map, uuid
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a property is an object of one key, its type"))
        }
        switch key {
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .int: self = .int(try container.decode(String.self, forKey: key))
        case .unsigned: self = .unsigned(try container.decode(String.self, forKey: key))
        case .fixed: self = .fixed(try container.decode(Int32.self, forKey: key))
        case .double: self = .double(try container.decode(Double.self, forKey: key))
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .point: self = .point(try container.decode([Int].self, forKey: key))
        case .size: self = .size(try container.decode([Int].self, forKey: key))
        case .rect: self = .rect(try container.decode([Int].self, forKey: key))
        case .vector: self = .vector(try container.decode([Self].self, forKey: key))
        case .map: self = .map(try container.decode([String: Self].self, forKey: key))
        case .uuid: self = .uuid(try container.decode(String.self, forKey: key))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .int(let value): try container.encode(value, forKey: .int)
        case .unsigned(let value): try container.encode(value, forKey: .unsigned)
        case .fixed(let value): try container.encode(value, forKey: .fixed)
        case .double(let value): try container.encode(value, forKey: .double)
        case .string(let value): try container.encode(value, forKey: .string)
        case .point(let value): try container.encode(value, forKey: .point)
        case .size(let value): try container.encode(value, forKey: .size)
        case .rect(let value): try container.encode(value, forKey: .rect)
        case .vector(let value): try container.encode(value, forKey: .vector)
        case .map(let value): try container.encode(value, forKey: .map)
        case .uuid(let value): try container.encode(value, forKey: .uuid)
        }
    }
}
