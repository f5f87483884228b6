import Foundation
import Preload
import PreloadAnimation
import PreloadAtlas
import Testing

/// Slices (0x2022) and user data (0x2020) of Aseprite files: read from files the tests write
/// from the specification, attached to the object the chunk before names, and damage failing
/// by name; a real file saved by Aseprite.
@Suite struct AsepriteSlicesTests {
    typealias F = AsepriteFixture

    /// A 1x1 sprite of `frames` frames, `chunks` in its first after a layer (`first` before it).
    static func file(frames: Int = 1, first: [[UInt8]] = [], _ chunks: [[UInt8]]) -> F {
        var file = F(width: 1, height: 1)
        file.frames = [F.Frame(duration: 100, chunks: first + [F.layer("only")] + chunks)]
        for _ in 1..<frames { file.frames.append(F.Frame(duration: 100, chunks: [])) }
        return file
    }

    @Test func slicesKeepTheirKeysCentresAndPivots() throws {
        let file = Self.file(
            frames: 4,
            [
                F.slice("button", flags: 1 | 2, keys: [[0, -2, 3, 10, 8, 2, 2, 6, 4, 5, 7], [2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]]),
                F.userData(text: "press", color: [255, 0, 0, 128]), F.slice("plain", keys: [[1, 0, 0, 1, 1]]),
            ])
        let (animation, warnings) = try AsepriteLoader.animation(from: file.bytes)
        #expect(warnings.isEmpty)
        let button = AnimationSlice(
            name: "button",
            keys: [
                AnimationSlice.Key(
                    frame: 0, bounds: PixelRect(x: -2, y: 3, width: 10, height: 8), center: PixelRect(x: 2, y: 2, width: 6, height: 4),
                    pivot: AnimationSlice.Point(x: 5, y: 7)),
                AnimationSlice.Key(frame: 2, bounds: PixelRect(x: 1, y: 1, width: 0, height: 0), pivot: AnimationSlice.Point(x: 0, y: 0)),
            ],
            userData: AnimationUserData(text: "press", color: AnimationUserData.Color(red: 255, green: 0, blue: 0, alpha: 128)))
        #expect(
            animation.slices == [
                button, AnimationSlice(name: "plain", keys: [AnimationSlice.Key(frame: 1, bounds: PixelRect(x: 0, y: 0, width: 1, height: 1))]),
            ])
        let found = try #require(animation.slice(named: "button"))
        // Frame 1 keeps frame 0's key; frame 2's empty key hides the slice from there on.
        #expect(found.key(atFrame: 1) == button.keys[0] && found.key(atFrame: 2) == nil && found.key(atFrame: 3) == nil)
        #expect(animation.slice(named: "plain")?.key(atFrame: 0) == nil && animation.slice(named: "plain")?.key(atFrame: 3)?.bounds.width == 1)
        let description = animation.assetDescription(checksums: nil)
        #expect(description.summary?.hasSuffix("0 tags, 2 slices (button, plain)") == true)
        guard case .array(let slices)? = description.fields["slices"], case .object(let first) = slices[0] else {
            Issue.record("no slices in \(description.fields)")
            return
        }
        #expect(first["name"] == .string("button") && slices.count == 2)
    }

    @Test func userDataGoesToTheSpriteTheTagsInOrderAndTheSlice() throws {
        let tags = F.tags([("idle", 0, 0, 0, 0), ("walk", 0, 1, 0, 0), ("jump", 1, 1, 0, 0)], color: [1, 2, 3])
        var file = F(width: 1, height: 1)
        file.frames = [
            F.Frame(
                duration: 100,
                chunks: [
                    F.palette([[0, 0, 0, 255]]), F.userData(text: "the sprite"), tags, F.userData(color: [9, 9, 9, 255]),
                    F.userData(text: "walking"), F.layer("arm"), F.userData(text: "the arm's"), F.slice("hit", keys: [[0, 0, 0, 1, 1]]),
                    F.userData(text: "hit box"),
                ]),
            F.Frame(
                duration: 100, chunks: [F.rawCel(layer: 0, width: 1, height: 1, pixels: [1, 2, 3, 255]), F.userData(text: "the cel's")]),
        ]
        let (animation, warnings) = try AsepriteLoader.animation(from: file.bytes)
        #expect(animation.userData == AnimationUserData(text: "the sprite"))
        // idle and walk have the chunks after the tags chunk; jump keeps the tags chunk's own colour.
        #expect(
            animation.tags.map(\.userData.color) == [
                AnimationUserData.Color(red: 9, green: 9, blue: 9), nil, AnimationUserData.Color(red: 1, green: 2, blue: 3),
            ])
        #expect(animation.tags.map(\.userData.text) == [nil, "walking", nil])
        #expect(animation.slices.map(\.userData) == [AnimationUserData(text: "hit box")])
        #expect(warnings.map(\.code) == [.asepriteUnreadData])
        #expect(warnings.first?.message == "user data not kept (an animation has no layers): layer 'arm', the cel of layer 'arm' in frame 2")
        // `--json` lists each tag's and slice's colour and text as Aseprite's export writes them.
        let fields = animation.assetDescription(checksums: nil).fields
        guard case .array(let tagFields)? = fields["tags"], case .array(let sliceFields)? = fields["slices"], tagFields.count == 3,
            case .object(let idle) = tagFields[0], case .object(let walk) = tagFields[1], case .object(let jump) = tagFields[2],
            case .object(let hit)? = sliceFields.first
        else {
            Issue.record("no tags or slices in \(fields)")
            return
        }
        #expect(idle["color"] == .string("#090909ff") && idle["data"] == nil)
        #expect(walk["color"] == nil && walk["data"] == .string("walking"))
        #expect(jump["color"] == .string("#010203ff") && hit["data"] == .string("hit box") && hit["color"] == nil)
    }

    @Test func userDataAfterTheLastTagsIsWarnedNotLost() throws {
        let file = Self.file([F.tags([("one", 0, 0, 0, 0)]), F.userData(text: "one's"), F.userData(text: "nobody's")])
        let (animation, warnings) = try AsepriteLoader.animation(from: file.bytes)
        #expect(animation.tags[0].userData == AnimationUserData(text: "one's"))
        #expect(warnings.map(\.message) == ["not read yet: 1 ownerless user data chunk"])
    }

    @Test func propertiesMapsReadEveryTypeAndNameTheirExtension() throws {
        let values: [[UInt8]] = [
            F.property("b", 1, [1]), F.property("i8", 2, [0xFF]), F.property("u8", 3, [200]), F.property("i16", 4, F.word(0xFFFE)),
            F.property("u16", 5, F.word(60000)), F.property("i32", 6, F.dword(-3)), F.property("u32", 7, F.dword(7)),
            F.property("i64", 8, F.dword(-5) + F.dword(-1)), F.property("u64", 9, F.dword(0) + F.dword(1)), F.property("fixed", 10, F.dword(0x18000)),
            F.property("float", 11, Array(withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian, Array.init))),
            F.property("double", 12, Array(withUnsafeBytes(of: Double(-0.25).bitPattern.littleEndian, Array.init))),
            F.property("s", 13, F.string("text")), F.property("pt", 14, F.dword(-1) + F.dword(2)), F.property("sz", 15, F.dword(3) + F.dword(4)),
            F.property("r", 16, F.dword(1) + F.dword(2) + F.dword(3) + F.dword(4)),
            F.property("v", 17, F.dword(2) + F.word(0) + F.word(1) + [0] + F.word(13) + F.string("x")),
            F.property("m", 18, F.dword(1) + F.string("deep") + F.word(5) + F.word(9)), F.property("id", 19, Array(0..<16)),
        ]
        let maps = F.propertiesMaps([(0, values), (7, [F.property("speed", 6, F.dword(3))])])
        let file = Self.file(first: [F.externalFiles([(7, "my-extension")]), F.userData(properties: maps)], [])
        let (animation, warnings) = try AsepriteLoader.animation(from: file.bytes)
        #expect(warnings.isEmpty)
        let expected: [String: AnimationProperty] = [
            "b": .bool(true), "i8": .int(-1), "u8": .unsigned(200), "i16": .int(-2), "u16": .unsigned(60000), "i32": .int(-3),
            "u32": .unsigned(7), "i64": .int(-5), "u64": .unsigned(1 << 32), "fixed": .fixed(0x18000),
            "float": .double(1.5), "double": .double(-0.25), "s": .string("text"), "pt": .point(x: -1, y: 2), "sz": .size(width: 3, height: 4),
            "r": .rect(x: 1, y: 2, width: 3, height: 4), "v": .vector([.bool(false), .string("x")]), "m": .map(["deep": .unsigned(9)]),
            "id": .uuid(Array(0..<16)),
        ]
        #expect(animation.userData.properties == ["": expected, "my-extension": ["speed": .int(3)]])
    }

    @Test func propertiesOfAnUnknownTypeArePassedOverByTheirSizeWithAWarning() throws {
        let maps = F.propertiesMaps([(0, [F.property("later", 99, [1, 2, 3])])])
        let file = Self.file(first: [F.userData(text: "kept", properties: maps)], [])
        let (animation, warnings) = try AsepriteLoader.animation(from: file.bytes)
        #expect(animation.userData == AnimationUserData(text: "kept"))
        #expect(warnings.map(\.code) == [.asepriteUnreadData] && warnings[0].message.contains("property type 99"))
    }

    @Test(arguments: [
        (AsepriteFixture.slice("big", keys: [[0, 0, 0, 1, 1]], statedKeyCount: 3), "slice 'big'", "says it has 3 keys of 20 bytes"),
        (AsepriteFixture.slice("cut", flags: 2, keys: [[0, 0, 0, 1, 1]]), "slice 'cut'", "says it has 1 keys of 28 bytes"),
        (
            AsepriteFixture.userData(properties: AsepriteFixture.propertiesMaps([]), statedPropertiesSize: 40), "chunk 3 of 3",
            "properties maps say they have 40 bytes"
        ),
        (
            AsepriteFixture.userData(properties: AsepriteFixture.propertiesMaps([]) + [0, 0], statedPropertiesSize: 10), "chunk 3 of 3",
            "end 2 bytes before their declared 10"
        ),
        (
            AsepriteFixture.userData(properties: AsepriteFixture.propertiesMaps([(0, [AsepriteFixture.property("s", 13, [9, 0, 1])])])),
            "chunk 3 of 3's properties map 1's property 's'", "cut short"
        ),
        (AsepriteFixture.chunk(0x2020, [1, 0, 0, 0, 5, 0, 65]), "chunk 3 of 3's text", "cut short"),
    ])
    func damagedSlicesAndUserDataFailByName(chunk: [UInt8], names: String, cause: String) throws {
        let file = Self.file([F.userData(text: "fine"), chunk])
        do {
            _ = try AsepriteLoader.animation(from: file.bytes)
            Issue.record("a damaged chunk loaded")
        } catch {
            let message = "\(error)"
            #expect(message.contains(names) && message.contains(cause), "\(message)")
        }
    }

    /// A file of `Fixtures` (see its README).
    static func fixture(_ name: String) throws -> [UInt8] {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test func aSliceSavedByAsepriteLoadsWithItsPivotAndColour() throws {
        let (animation, warnings) = try AsepriteLoader.animation(from: try Self.fixture("ghost_slices.aseprite"))
        #expect(warnings.isEmpty)
        let blue = AnimationUserData(color: AnimationUserData.Color(red: 0, green: 0, blue: 255))
        #expect(
            animation.slices == [
                AnimationSlice(
                    name: "ghost_blue", keys: [AnimationSlice.Key(frame: 0, bounds: PixelRect(x: 2, y: 3, width: 12, height: 18))], userData: blue),
                AnimationSlice(
                    name: "ghost_red",
                    keys: [
                        AnimationSlice.Key(frame: 0, bounds: PixelRect(x: 17, y: 2, width: 14, height: 20), pivot: AnimationSlice.Point(x: 7, y: 19))
                    ], userData: blue),
            ])
        let tags = try AsepriteLoader.animation(from: try Self.fixture("player.aseprite")).animation.tags
        #expect(tags.map(\.name) == ["idle", "walk-down", "walk-up", "walk-right"])
        #expect(tags.allSatisfy { $0.userData == AnimationUserData(color: AnimationUserData.Color(red: 0, green: 0, blue: 0)) })
    }
}
