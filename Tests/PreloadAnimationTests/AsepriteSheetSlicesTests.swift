import Foundation
import Preload
import PreloadAnimation
import PreloadAtlas
import Testing

/// `meta.slices` of Aseprite's sheet export load as the same slices as the `.aseprite` file
/// holds; damage fails by name.
@Suite struct AsepriteSheetSlicesTests {
    typealias F = AsepriteFixture

    /// The fixture's two frames with `slices` in its JSON's `meta`, as Aseprite writes them.
    static func export(slices: String) throws -> (animation: SpriteAnimation, warnings: [AssetWarning]) {
        let json = AsepriteSheetLoaderTests.array(
            meta: AsepriteSheetLoaderTests.meta().replacingOccurrences(of: #""slices": []"#, with: #""slices": [\#(slices)]"#))
        return try AsepriteSheetLoader.animation(
            json: Array(json.utf8), page: AsepriteSheetLoaderTests.sheet(try AsepriteSheetLoaderTests.reference()).texture)
    }

    @Test func exportedSlicesEqualTheFilesSlices() throws {
        var file = try F.twoLayers()
        file.frames[0].chunks += [
            F.slice("patch", flags: 1, keys: [[0, 0, 0, 3, 1, 1, 0, 1, 1]]), F.userData(text: "nine", color: [0, 0, 255, 255]),
            F.slice("hand", flags: 2, keys: [[0, 1, 0, 2, 1, 1, 0], [1, -1, -2, 2, 1, 0, 0]]),
        ]
        let fromFile = try AsepriteLoader.animation(from: file.bytes).animation
        // What Aseprite's exporter writes for them (a centre only when it has one, the pivot whenever the slice has pivots).
        let slices = #"""
            { "name": "patch", "color": "#0000ffff", "data": "nine", "keys": [{ "frame": 0, "bounds": {"x": 0, "y": 0, "w": 3, "h": 1 }, "center": {"x": 1, "y": 0, "w": 1, "h": 1 } }] },
            { "name": "hand", "keys": [{ "frame": 0, "bounds": {"x": 1, "y": 0, "w": 2, "h": 1 }, "pivot": {"x": 1, "y": 0 } }, { "frame": 1, "bounds": {"x": -1, "y": -2, "w": 2, "h": 1 }, "pivot": {"x": 0, "y": 0 } }] }
            """#
        let (fromExport, warnings) = try Self.export(slices: slices)
        #expect(warnings.isEmpty)
        #expect(fromFile.slices.count == 2 && fromExport.slices == fromFile.slices)
        #expect(fromExport.slice(named: "hand")?.key(atFrame: 1)?.bounds == PixelRect(x: -1, y: -2, width: 2, height: 1))
    }

    @Test func propertiesAreWarnedByTheSlicesName() throws {
        let (animation, warnings) = try Self.export(
            slices:
                ##"{ "name": "hit", "color": "#ff000080", "properties": {"damage": 3}, "keys": [{ "frame": 0, "bounds": {"x": 0, "y": 0, "w": 1, "h": 1 } }] }"##
        )
        #expect(animation.slices[0].userData == AnimationUserData(color: AnimationUserData.Color(red: 255, green: 0, blue: 0, alpha: 128)))
        #expect(warnings.map(\.code) == [.asepriteUnreadData] && warnings[0].message == "the properties of slice 'hit' are not read")
    }

    @Test(arguments: [
        (#"{ "keys": [] }"#, "slice 0: 'name' is missing"),
        (#"{ "name": "a", "color": "blue" }"#, "slice 'a': 'color' is not #rrggbbaa: 'blue'"),
        (#"{ "name": "a", "keys": [{ "frame": 0 }] }"#, "slice 'a''s key 0: 'bounds' is missing"),
        (#"{ "name": "a", "keys": [{ "frame": 0, "bounds": {"x": 0, "y": 0, "w": -1, "h": 1 } }] }"#, "a negative size, -1x1"),
        (#"{ "name": "a", "keys": [{ "frame": -1, "bounds": {"x": 0, "y": 0, "w": 1, "h": 1 } }] }"#, "a negative 'frame', -1"),
        (#"{ "name": "a", "keys": {} }"#, "slice 'a': 'keys' is not an array"),
    ])
    func damagedSlicesFailByName(slice: String, cause: String) throws {
        #expect {
            _ = try Self.export(slices: slice)
        } throws: { error in
            "\(error)".contains(cause)
        }
    }
}
