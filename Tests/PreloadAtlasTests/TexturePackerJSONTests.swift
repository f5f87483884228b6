import Preload
import PreloadAtlas
import PreloadTestSupport
import Testing

/// PreloadAtlas's one reading of TexturePacker-style JSON: frames in document order, in the
/// atlas model, with the members the model passes over at hand (what the Animation plugin reads
/// Aseprite's exports with).
@Suite struct TexturePackerJSONTests {
    static let hash = #"""
        {"frames": {
            "walk 9": {"frame": {"x": 0, "y": 0, "w": 3, "h": 1}, "rotated": false, "trimmed": true, "spriteSourceSize": {"x": 1, "y": 2, "w": 3, "h": 1}, "sourceSize": {"w": 5, "h": 4}, "duration": 120},
            "walk 10": {"frame": {"x": 3, "y": 0, "w": 3, "h": 1}, "rotated": true, "pivot": {"x": 0.5, "y": 1}, "duration": 80},
            "aim": {"frame": {"x": 4, "y": 0, "w": 1, "h": 1}, "rotated": null, "spriteSourceSize": null, "pivot": null}
         },
         "meta": {"app": "https://www.aseprite.org/", "image": "hero.png", "size": {"w": 8, "h": 3}, "scale": "1",
                  "frameTags": [{"name": "walk", "from": 0, "to": 1}], "slices": []}}
        """#

    @Test func aHashReadsInDocumentOrderWithTheMembersTheModelPassesOver() throws {
        let json = try TexturePackerJSON(Array(Self.hash.utf8), file: "hero.json")
        #expect(json.pages.count == 1)
        let page = json.pages[0]
        #expect(page.image == "hero.png" && page.size?.width == 8 && page.size?.height == 3 && page.form == .hash)
        #expect(page.frames.map(\.frame.name) == ["walk 9", "walk 10", "aim"])
        let first = page.frames[0].frame, second = page.frames[1].frame
        #expect(first.rect == PixelRect(x: 0, y: 0, width: 3, height: 1) && first.rotation == .none)
        #expect(first.offsetX == 1 && first.offsetY == 2 && first.sourceWidth == 5 && first.sourceHeight == 4 && first.isTrimmed)
        #expect(second.rect == PixelRect(x: 3, y: 0, width: 1, height: 3) && second.rotation == .clockwise && second.pivot == SIMD2(0.5, 1))
        #expect(try page.frames.map { $0.fields.has("duration") ? try $0.fields.int("duration") : 0 } == [120, 80, 0])
        let meta = try #require(json.meta)
        #expect(try meta.objects("frameTags").map { try $0.string("name") } == ["walk"])
        #expect(try meta.string("app") == "https://www.aseprite.org/" && meta.values["slices"] != nil)
        #expect(page.fields.place == "'meta'" && json.fields.has("frames"))
        // `null` is absent: the defaults.
        let aim = page.frames[2]
        #expect(aim.frame.rotation == .none && aim.frame.offsetX == 0 && aim.frame.pivot == nil && !aim.fields.has("pivot"))
    }

    /// The atlas lists a hash's frames by name, as before the reading was shared.
    @Test func theAtlasStillListsAHashByName() throws {
        let directory = try TemporaryDirectory("texturepacker-json")
        try directory.write("hero.json", text: Self.hash)
        let description = try AtlasLoader.describe(path: directory.file("hero.json"))
        #expect(description.frames.map(\.name) == ["aim", "walk 10", "walk 9"] && description.format == .texturePackerHash)
    }

    @Test func anArrayAndAMultiatlasReadInTheirOrder() throws {
        let array =
            #"{"frames": [{"filename": "b", "frame": {"x": 0, "y": 0, "w": 1, "h": 1}}, {"filename": "a", "frame": {"x": 1, "y": 0, "w": 1, "h": 1}}], "meta": {"image": "p.png"}}"#
        let listed = try TexturePackerJSON(Array(array.utf8), file: "p.json")
        #expect(listed.pages[0].form == .array && listed.pages[0].frames.map(\.frame.name) == ["b", "a"] && listed.pages[0].size == nil)
        let multi = #"""
            {"textures": [{"image": "1.png", "size": {"w": 2, "h": 2}, "frames": [{"filename": "x", "frame": {"x": 0, "y": 0, "w": 1, "h": 1}}]},
                          {"image": "2.png", "frames": [{"filename": "y", "frame": {"x": 0, "y": 0, "w": 2, "h": 2}}]}]}
            """#
        let pages = try TexturePackerJSON(Array(multi.utf8), file: "m.json").pages
        #expect(pages.map(\.image) == ["1.png", "2.png"] && pages.map { $0.frames.map(\.frame.page) } == [[0], [1]])
        #expect(pages[1].fields.place == "textures[1]")
    }

    @Test func damageNamesTheFrameAndTheMember() {
        let cases = [
            (
                #"{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": "3", "h": 1}}}, "meta": {"image": "p.png"}}"#,
                "frame 'a': 'frame': 'w' is missing or not a number"
            ),
            (#"{"frames": {"a": 3}, "meta": {"image": "p.png"}}"#, "frame 'a' is not an object"),
            (#"{"frames": [{"frame": {"x": 0, "y": 0, "w": 1, "h": 1}}], "meta": {"image": "p.png"}}"#, "frames[0]: 'filename' is missing"),
            (#"{"frames": {}}"#, "'meta' is missing or not an object"),
            (#"{"frames": {}, "meta": {"image": "p.png", "frameTags": {}}}"#, ""),
            ("[1]", "the top level is not a JSON object"),
        ]
        for (text, cause) in cases {
            do {
                let json = try TexturePackerJSON(Array(text.utf8), file: "p.json")
                #expect(cause.isEmpty, "\(text) read")
                #expect(throws: AtlasError.self) { try json.meta?.objects("frameTags") }
            } catch {
                #expect(!cause.isEmpty && "\(error)".contains(cause), "\(error)")
            }
        }
    }
}
