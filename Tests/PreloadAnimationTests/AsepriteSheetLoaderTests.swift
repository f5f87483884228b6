import Foundation
import Preload
import PreloadAnimation
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// Aseprite's sheet export (PNG + JSON, hash and array forms) loads as the same animation as
/// the `.aseprite` file: the test writes the sheet from the fixture's own frames.
@Suite struct AsepriteSheetLoaderTests {
    /// The fixture's animation, loaded from its `.aseprite` bytes.
    static func reference() throws -> SpriteAnimation {
        try AsepriteLoader.animation(from: try AsepriteFixture.twoLayers().bytes).animation
    }

    /// A 4x3 sheet: frame 0 upright at (0, 0), frame 1 turned 90° clockwise as a 1x3 column at (3, 0).
    static func sheet(_ animation: SpriteAnimation) -> (png: [UInt8], texture: Texture) {
        let (first, second) = (animation.canvasPixels(ofFrame: 0), animation.canvasPixels(ofFrame: 1))
        var pixels = [UInt8](repeating: 0, count: 4 * 3 * 4)
        for x in 0..<3 {
            pixels.replaceSubrange(x * 4..<x * 4 + 4, with: first[x * 4..<x * 4 + 4])
            // Upright (x, 0) of a clockwise-turned 3x1 frame is the column's row x.
            let target = (x * 4 + 3) * 4
            pixels.replaceSubrange(target..<target + 4, with: second[x * 4..<x * 4 + 4])
        }
        return (
            PNGFixture.rgba(width: 4, height: 3, pixels: pixels),
            Texture(width: 4, height: 3, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels)
        )
    }

    static let frameFields = [
        #""frame": {"x": 0, "y": 0, "w": 3, "h": 1}, "rotated": false, "trimmed": false, "spriteSourceSize": {"x": 0, "y": 0, "w": 3, "h": 1}, "sourceSize": {"w": 3, "h": 1}, "duration": 100"#,
        #""frame": {"x": 3, "y": 0, "w": 3, "h": 1}, "rotated": true, "trimmed": false, "sourceSize": {"w": 3, "h": 1}, "duration": 150"#,
    ]

    static func meta(
        tags: String =
            ##"{"name": "all", "from": 0, "to": 1, "direction": "pingpong", "color": "#000000ff"}, {"name": "second", "from": 1, "to": 1, "direction": "forward", "repeat": "1", "color": "#000000ff"}"##
    ) -> String {
        #""meta": {"app": "https://www.aseprite.org/", "version": "1.3.7", "image": "hero.png", "format": "RGBA8888", "size": {"w": 4, "h": 3}, "scale": "1", "frameTags": [\#(tags)], "layers": [{"name": "bottom", "opacity": 255, "blendMode": "normal"}], "slices": []}"#
    }

    /// The hash form, its keys in an order sorting would change (frame 0 is "walk 9").
    static func hash(meta: String = meta()) -> String {
        #"{ "frames": { "walk 9": { \#(frameFields[0]) }, "walk 10": { \#(frameFields[1]) } }, \#(meta) }"#
    }

    static func array(meta: String = meta()) -> String {
        #"{ "frames": [ { "filename": "a", \#(frameFields[0]) }, { "filename": "b", \#(frameFields[1]) } ], \#(meta) }"#
    }

    @Test(arguments: ["hash", "array"]) func anExportLoadsAsTheAsepriteFileDoes(form: String) throws {
        let reference = try Self.reference()
        let json = form == "hash" ? Self.hash() : Self.array()
        let (animation, warnings) = try AsepriteSheetLoader.animation(json: Array(json.utf8), page: Self.sheet(reference).texture)
        #expect(warnings.isEmpty)
        #expect(animation.width == 3 && animation.height == 1)
        #expect(animation.frames == reference.frames && animation.tags == reference.tags)
        #expect(animation.pages.map(\.pixels) == reference.pages.map(\.pixels))
        #expect(animation.canvasPixels(ofFrame: 1) == [200, 100, 50, 255, 255, 0, 0, 128, 10, 20, 30, 64])
    }

    @Test func tagsReadEveryDirectionAndRepeatAsANumberOrAString() throws {
        let tags =
            ##"{"name": "f", "from": 0, "to": 1}, {"name": "r", "from": 0, "to": 1, "direction": "reverse", "repeat": 3}, {"name": "p", "from": 0, "to": 1, "direction": "pingpong_reverse", "repeat": "2", "color": "#000000ff", "data": "x"}"##
        let json = Self.array(meta: Self.meta(tags: tags))
        let animation = try AsepriteSheetLoader.animation(json: Array(json.utf8), page: Self.sheet(try Self.reference()).texture).animation
        #expect(
            animation.tags == [
                AnimationTag(name: "f", from: 0, to: 1), AnimationTag(name: "r", from: 0, to: 1, direction: .reverse, repeatCount: 3),
                AnimationTag(
                    name: "p", from: 0, to: 1, direction: .pingPongReverse, repeatCount: 2,
                    userData: AnimationUserData(text: "x", color: AnimationUserData.Color(red: 0, green: 0, blue: 0, alpha: 255))),
            ])
    }

    @Test func aTrimmedFrameIsPlacedOnItsSourceSize() throws {
        let page = Texture(width: 1, height: 1, pixelFormat: .rgba8, alphaMode: .straight, pixels: [9, 8, 7, 255])
        let json = #"""
            {"frames": [{"filename": "a", "frame": {"x": 0, "y": 0, "w": 1, "h": 1}, "trimmed": true, "spriteSourceSize": {"x": 2, "y": 1, "w": 1, "h": 1}, "sourceSize": {"w": 4, "h": 2}}],
             "meta": {"image": "s.png", "frameTags": [], "slices": [{"name": "hit", "keys": []}], "unknown": 1}}
            """#
        let (animation, warnings) = try AsepriteSheetLoader.animation(json: Array(json.utf8), page: page)
        #expect(animation.width == 4 && animation.height == 2 && animation.frames.count == 1)
        #expect(animation.frames[0].canvasRect == PixelRect(x: 2, y: 1, width: 1, height: 1) && animation.frames[0].durationMilliseconds == 100)
        #expect(warnings.isEmpty && animation.slices == [AnimationSlice(name: "hit", keys: [])])
    }

    @Test(arguments: [
        (#"{"frames": [{"frame": {"x": 2, "y": 0, "w": 3, "h": 1}}], "meta": {"image": "s.png"}}"#, "frame 'a'", "outside the 4x3 sheet"),
        (
            #"{"frames": [{"frame": {"x": 0, "y": 0, "w": 3, "h": 1}}], "meta": {"image": "s.png", "frameTags": [{"name": "t", "from": 0, "to": 1}]}}"#,
            "tag 't'", "past the 1 frames"
        ),
        (#"{"frames": [{"rotated": false}], "meta": {"image": "s.png"}}"#, "frame 'a': 'frame' is missing", ""),
        (
            #"{"frames": [{"frame": {"x": 0, "y": 0, "w": 1, "h": 1}, "duration": -5}], "meta": {"image": "s.png"}}"#,
            "frame 'a': a negative duration", ""
        ),
        (
            #"{"frames": [{"frame": {"x": 0, "y": 0, "w": 1, "h": 1}, "sourceSize": {"w": 1000000000, "h": 1000000000}}], "meta": {"image": "s.png"}}"#,
            "frame 'a': its source size, 1000000000x1000000000, is past 32768x32768", ""
        ),
        (#"{"frames": [], "meta": {"image": "s.png", "frameTags": 3}}"#, "'meta': 'frameTags' is not a list of objects", ""),
        (#"{"frames": [], "meta": {}}"#, "'image' is missing", ""),
        (#"{"frames": 3, "meta": {"image": "s.png"}}"#, "'frames' is missing or neither", ""),
        (
            #"{"frames": [{"frame": {"x": 0, "y": 0, "w": 1, "h": 1}}], "meta": {"image": "s.png", "frameTags": [{"name": "t", "from": 0, "to": 0, "direction": "sideways"}]}}"#,
            "unknown direction 'sideways'", ""
        ),
        (
            #"{"frames": [{"frame": {"x": 0, "y": 0, "w": 1, "h": 1}}], "meta": {"image": "s.png", "size": {"w": 8, "h": 8}}}"#, "'size' says 8x8",
            "4x3"
        ),
        ("[1, 2]", "not a JSON object", ""),
    ])
    func damageFailsNamingItsCause(json: String, cause: String, detail: String) throws {
        // Aseprite names every frame of the array form (`filename`).
        let named = json.replacingOccurrences(of: #"[{"#, with: #"[{"filename": "a", "#)
        let error = #expect(throws: AsepriteError.self) {
            try AsepriteSheetLoader.animation(json: Array(named.utf8), page: Self.sheet(try Self.reference()).texture)
        }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains(cause) && (detail.isEmpty || message.contains(detail)), "\(message)")
    }

    @Test func aFolderLoadsAnExportAsAnAnimationAndATagLessJSONStaysAnAtlas() async throws {
        let directory = try TemporaryDirectory("aseprite-sheet-loader")
        try directory.write("hero.png", Self.sheet(try Self.reference()).png)
        try directory.write("hero.json", text: Self.hash())
        try directory.write(
            "atlas.json",
            text:
                #"{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": 3, "h": 1}}}, "meta": {"app": "https://www.aseprite.org/", "image": "hero.png"}}"#)
        try directory.write(
            "moved.json", text: Self.hash().replacingOccurrences(of: #""image": "hero.png""#, with: #""image": "/Users/artist/game/hero.png""#))
        try directory.write("broken.json", text: Self.hash().replacingOccurrences(of: #""to": 1,"#, with: #""to": 7,"#))
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AsepriteSheetLoader(), AtlasLoader()])
        let report = try await coordinator.preload([.folder(directory.path, name: "s")])
        let plugins = Dictionary(uniqueKeysWithValues: report.results.map { (AssetPath.fileName(of: $0.request.path), $0.plugin) })
        #expect(plugins["hero.json"] == "aseprite-sheet" && plugins["atlas.json"] == "atlas" && plugins["broken.json"] == "aseprite-sheet")
        let hero = try #require(coordinator.assets.asset(named: "s/hero.json", as: SpriteAnimation.self))
        #expect(hero.frames == (try Self.reference()).frames)
        #expect(coordinator.assets.asset(named: "s/atlas.json", as: TextureAtlas.self)?.frames.count == 1)
        // Aseprite writes the path it exported to: a sheet not there is looked for beside the JSON.
        #expect(coordinator.assets.asset(named: "s/moved.json", as: SpriteAnimation.self)?.frames == hero.frames)
        #expect(report.warned.flatMap(\.warnings).map(\.code) == [.asepriteSheetPath])
        let failure = try #require(report.failed.first)
        let message = failure.outcome.error.map { "\($0)" } ?? ""
        #expect(report.failed.count == 1 && message.contains("broken.json") && message.contains("tag 'all' runs from frame 0 to 7"), "\(message)")
    }

    /// An export cut short (its `meta`, with the tags, never reached) falls to the atlas plugin,
    /// which names the file and where the text ends, not Foundation's "isn't in the correct format".
    @Test func anExportCutShortFailsNamingWhereItEnds() async throws {
        let directory = try TemporaryDirectory("aseprite-sheet-cut")
        try directory.write("hero.png", Self.sheet(try Self.reference()).png)
        let cut = String(Self.hash().utf8.prefix(Self.hash().utf8.count / 2))!
        try directory.write("hero.json", text: cut)
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AsepriteSheetLoader(), AtlasLoader()])
        let report = try await coordinator.preload([AssetRequest(path: directory.file("hero.json"))])
        let error = try #require(report.failed.first?.outcome.error)
        let lines = cut.split(separator: "\n", omittingEmptySubsequences: false)
        let end = "line \(lines.count), column \(lines[lines.count - 1].utf8.count + 1) (after \(cut.utf8.count) bytes)"
        #expect(error.path == directory.file("hero.json") && error.category == .corrupt, "\(error)")
        #expect(error.reason == "malformed atlas: not valid JSON: the text ends inside a value, at \(end): cut short?", "\(error)")
    }

    /// A sheet nowhere to be found is a missing file, named with what was tried (once each), not
    /// a damaged export (the trial of issue 51 met "malformed ... nor kayahr.png or kayahr.png").
    @Test func aSheetNowhereToBeFoundIsAMissingFile() async throws {
        let directory = try TemporaryDirectory("aseprite-sheet-missing")
        try directory.write(
            "hero.json",
            text: Self.hash(meta: Self.meta().replacingOccurrences(of: #""image": "hero.png""#, with: #""image": "/Users/artist/hero.png""#)))
        try directory.write("walk.json", text: Self.hash())
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AsepriteSheetLoader()])
        let report = try await coordinator.preload([AssetRequest(path: directory.file("hero.json")), AssetRequest(path: directory.file("walk.json"))])
        let messages = report.failed.compactMap { $0.outcome.error }.map { ($0.category, "\($0)") }
        #expect(messages.count == 2 && messages.allSatisfy { $0.0 == .fileNotFound }, "\(messages)")
        #expect(
            messages.contains { $0.1.hasSuffix("the sheet '/Users/artist/hero.png' the export names is not there, nor hero.png beside the JSON") },
            "\(messages)")
        #expect(
            messages.contains { $0.1.hasSuffix("the sheet 'hero.png' the export names is not there, nor walk.png beside the JSON") }, "\(messages)")
    }

    @Test func theClaimReadsUntilMetaAndPassesOtherJSONOn() {
        let loader = AsepriteSheetLoader()
        let export = Array(Self.hash().utf8)
        #expect(loader.signatureMatch(export) == .matches)
        #expect(loader.signatureMatch(Array(export.prefix(40))) == .undecided)
        #expect(loader.signatureMatch(Array(Self.hash(meta: #""meta": {"image": "hero.png"}"#).utf8)) == .differs)
        #expect(loader.signatureMatch(Array(#"{"compressionlevel": -1, "frames": [], "meta": {"frameTags": []}}"#.utf8)) == .differs)
        #expect(loader.signatureMatch(Array("\u{89}PNG".utf8)) == .differs)
    }

    /// TexturePacker writes no `duration`: an atlas of any size differs at its first frame, where
    /// the claim once read up to 4 MiB to reach its `meta` (issue 51).
    @Test(arguments: ["hash", "array"]) func anAtlasDiffersAtItsFirstFrame(form: String) {
        let entry = #""frame": {"x": 0, "y": 0, "w": 3, "h": 1}, "rotated": false, "trimmed": false, "sourceSize": {"w": 3, "h": 1}"#
        let frames = (0..<2000).map { form == "hash" ? #""f\#($0).png": {\#(entry)}"# : #"{"filename": "f\#($0).png", \#(entry)}"# }
        let body = form == "hash" ? "{\(frames.joined(separator: ", "))}" : "[\(frames.joined(separator: ", "))]"
        let atlas = Array(#"{"frames": \#(body), "meta": {"image": "a.png", "frameTags": []}}"#.utf8)
        let loader = AsepriteSheetLoader()
        #expect(loader.signatureMatch(Array(atlas.prefix(loader.headerLength))) == .differs)
        var asked = [Int]()
        let answer = PluginRegistry.signatureMatch(of: loader, header: Array(atlas.prefix(loader.headerLength))) { count in
            asked.append(count)
            return Array(atlas.prefix(count))
        }
        #expect(answer == .differs && asked.isEmpty, "read \(asked) bytes more")
        // An export's frames have durations: it is read on to its `meta`.
        let export = Array((form == "hash" ? Self.hash() : Self.array()).utf8)
        #expect(loader.signatureMatch(export) == .matches)
        #expect(loader.signatureMatch(Array(export.prefix(60))) == .undecided)
        #expect(loader.signatureMatch(Array(#"{"frames": [], "meta": {"frameTags": []}}"#.utf8)) == .matches)
        #expect(loader.signatureMatch(Array(#"{"frames": [ "#.utf8)) == .undecided)
        #expect(loader.signatureMatch(Array(#"{"frames": [3], "meta": {"frameTags": []}}"#.utf8)) == .differs)
    }

    /// A 16-bit or premultiplied sheet cuts as the straight 8-bit sheet it stands for.
    @Test func aSixteenBitOrPremultipliedSheetCutsAsItsStraightSelf() throws {
        let straight = Self.sheet(try Self.reference()).texture
        let bytes = straight.pixels.array
        let wide = Texture(
            width: 4, height: 3, pixelFormat: .rgba16, alphaMode: .straight, pixels: AssetBytes(bytes.flatMap { [0x5A, $0] }))
        let premultiplied = Texture(
            width: 4, height: 3, pixelFormat: .rgba8, alphaMode: .premultiplied,
            pixels: AssetBytes(
                bytes.indices.map { index in
                    index % 4 == 3 ? bytes[index] : UInt8((Int(bytes[index]) * Int(bytes[index | 3]) + 127) / 255)
                }))
        let json = Array(Self.hash().utf8)
        let reference = try AsepriteSheetLoader.animation(json: json, page: straight).animation
        let fromWide = try AsepriteSheetLoader.animation(json: json, page: wide).animation
        #expect(fromWide.frames == reference.frames && fromWide.pages.map(\.pixels) == reference.pages.map(\.pixels))
        let fromPremultiplied = try AsepriteSheetLoader.animation(json: json, page: premultiplied).animation
        #expect(fromPremultiplied.frames == reference.frames)
        // 255,0,0 at alpha 128 premultiplies to 128,0,0 and back to 255,0,0; 10,20,30 at 64 to 3,5,8 and back to 12,20,32.
        #expect(fromPremultiplied.canvasPixels(ofFrame: 1) == [200, 100, 50, 255, 255, 0, 0, 128, 12, 20, 32, 64])
    }

    /// Frames shown twice (Aseprite exports a held frame again) are stored once, and a frame
    /// with no opaque pixel takes no room: the same pages as the `.aseprite` file's.
    @Test func heldAndEmptyFramesAreStoredOnce() throws {
        let frames = [
            #""frame": {"x": 0, "y": 0, "w": 3, "h": 1}, "duration": 100"#, #""frame": {"x": 0, "y": 0, "w": 3, "h": 1}, "duration": 50"#,
            #""frame": {"x": 0, "y": 1, "w": 3, "h": 1}, "duration": 20"#,
        ]
        let json = #"{"frames": {"a": {\#(frames[0])}, "b": {\#(frames[1])}, "c": {\#(frames[2])}}, "meta": {"image": "s.png"}}"#
        let animation = try AsepriteSheetLoader.animation(json: Array(json.utf8), page: Self.sheet(try Self.reference()).texture).animation
        #expect(animation.frames.map(\.durationMilliseconds) == [100, 50, 20])
        #expect(animation.frames[0].rect == animation.frames[1].rect && animation.frames[2].canvasRect == PixelRect(x: 0, y: 0, width: 0, height: 0))
        #expect(animation.pages.count == 1 && animation.canvasPixels(ofFrame: 2) == [UInt8](repeating: 0, count: 12))
        #expect(animation.canvasPixels(ofFrame: 1) == animation.canvasPixels(ofFrame: 0))
    }
}
