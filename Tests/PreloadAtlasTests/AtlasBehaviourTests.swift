import Foundation
import Preload
import PreloadAtlas
import PreloadPNG
import PreloadTestSupport
import Testing

/// Pages as dependencies, and damaged descriptors: errors name the file and the frame.
@Suite struct AtlasBehaviourTests {
    let directory: TemporaryDirectory
    let coordinator: PreloadCoordinator
    static let page = PNGFixture.rgba(width: 32, height: 32, pixels: PNGFixture.noise(width: 32, height: 32, seed: 5))

    init() throws {
        directory = try TemporaryDirectory()
        coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()], configuration: .init(maxConcurrentLoads: 2))
        try directory.write("page.png", Self.page)
    }

    /// A one-page TexturePacker hash descriptor with the given frames (JSON text for "frames").
    func descriptor(_ name: String, frames: String, image: String = "page.png") throws -> String {
        try directory.write(name, text: #"{"frames": \#(frames), "meta": {"image": "\#(image)", "size": {"w": 32, "h": 32}, "scale": "1"}}"#)
    }

    static let twoFrames = #"{"a.png": {"frame": {"x": 0, "y": 0, "w": 16, "h": 16}}, "b.png": {"frame": {"x": 16, "y": 16, "w": 16, "h": 16}}}"#

    func load(_ paths: [String]) async throws -> PreloadReport {
        try await coordinator.start(paths.map { AssetRequest(path: $0) }).finished()
    }

    @Test func aPageSharedByTwoAtlasesDecodesOnce() async throws {
        let first = try descriptor("one.json", frames: Self.twoFrames)
        let second = try descriptor("two.json", frames: #"{"whole.png": {"frame": {"x": 0, "y": 0, "w": 32, "h": 32}}}"#)
        let report = try await load([first, second])
        #expect(report.everythingLoaded)
        let pageLoads = Set(report.allResults.filter(\.isDependency).compactMap(\.assetIndex))
        #expect(pageLoads.count == 1)
        let one = try #require(coordinator.assets.asset(atPath: first) as? TextureAtlas)
        let two = try #require(coordinator.assets.asset(atPath: second) as? TextureAtlas)
        one.pages[0].texture.pixels.withUnsafeBufferPointer { a in
            two.pages[0].texture.pixels.withUnsafeBufferPointer { b in #expect(a.baseAddress == b.baseAddress) }
        }
        #expect(try two.image(of: two.frame(named: "whole")!).pixels == one.pages[0].texture.pixels)
    }

    /// A folder holding an atlas and its page: the page loads once, is listed once (as the
    /// atlas's page: the folder's file is folded into the atlas) and its bytes count once; a
    /// page that is not shared counts as its own.
    @Test func aPageLoadedAsAFileTooCountsOnce() async throws {
        _ = try descriptor("one.json", frames: Self.twoFrames)
        let report = try await coordinator.start([.folder(directory.path)]).finished()
        #expect(report.everythingLoaded && report.results.count == 1 && report.dependencies.count == 1)
        #expect(Set(report.allResults.compactMap(\.assetIndex)).count == 2, "the page decodes once")
        #expect(report.decodedBytes == 32 * 32 * 4, "the page counted once, not as the atlas and again as a texture")
        let alone = try await load([try descriptor("two.json", frames: Self.twoFrames)])
        #expect(alone.decodedBytes == 32 * 32 * 4)
    }

    @Test func printingAnAtlasGivesOneLine() async throws {
        let path = try descriptor("one.json", frames: Self.twoFrames)
        _ = try await load([path])
        let atlas = try #require(coordinator.assets.asset(named: path, as: TextureAtlas.self))
        #expect("\(atlas)" == "texturepacker-hash atlas: 1 page (32x32), 2 frames (a.png, b.png)")
    }

    @Test func aMissingPageFailsTheAtlasWithThePagesCause() async throws {
        let atlas = try descriptor("lost.json", frames: Self.twoFrames, image: "nowhere.png")
        let error = try #require(try await load([atlas]).errors.first)
        #expect(error.path == atlas && error.category == .dependencyFailed)
        #expect(error.reason.contains("nowhere.png") && error.reason.contains("no such file"), "\(error)")
    }

    @Test func aCorruptPageFailsTheAtlasWithThePagesCause() async throws {
        try directory.write("broken.png", Array("not a png".utf8))
        let atlas = try descriptor("broken.json", frames: Self.twoFrames, image: "broken.png")
        let error = try #require(try await load([atlas]).errors.first)
        #expect(error.category == .dependencyFailed && error.reason.contains("not a PNG file"), "\(error)")
    }

    /// A sprite the folder listing cannot name must fail the atlas, not vanish from it.
    @Test func aSpriteWhoseNameIsNotUTF8FailsTheFolderByName() async throws {
        try directory.write("heroes.atlas/hero.png", Self.page)
        directory.createFileWithNonUTF8Name("heroes.atlas/odd\u{1}.png")
        let error = try #require(try await load([directory.file("heroes.atlas")]).errors.first)
        #expect(error.reason.contains("odd\u{FFFD}.png: its name is not valid UTF-8"), "\(error)")
    }

    @Test func aFrameOutsideItsPageIsAnErrorNamingTheFrame() async throws {
        let atlas = try descriptor(
            "outside.json",
            frames: #"{"ok.png": {"frame": {"x": 0, "y": 0, "w": 8, "h": 8}}, "far.png": {"frame": {"x": 30, "y": 0, "w": 8, "h": 8}}}"#)
        let error = try #require(try await load([atlas]).errors.first)
        #expect(error.category == .corrupt)
        #expect(error.description == "\(atlas): frame 'far.png' at (30, 0, 8x8) lies outside page page.png (32x32)")
    }

    @Test func duplicateFrameNamesLoadWithAWarningAndTheFirstWins() async throws {
        let first = #"{"filename": "twin.png", "frame": {"x": 0, "y": 0, "w": 8, "h": 8}}"#
        let second = #"{"filename": "twin.png", "frame": {"x": 8, "y": 0, "w": 8, "h": 8}}"#
        let atlas = try descriptor("twins.json", frames: "[\(first), \(second)]")
        let result = try #require(try await load([atlas]).results.first)
        let loaded = try #require(result.outcome.asset as? TextureAtlas)
        #expect(loaded.frame(named: "twin")?.rect.x == 0 && loaded.frames(named: "twin").count == 2)
        #expect(result.warnings.map(\.message) == ["frame 'twin.png' is named more than once; the first is used by name"])
    }

    @Test(arguments: [
        (
            #"{"frames": {"x.png": {"frame": {"x": 0, "y": 0, "w": 8}}}, "meta": {"image": "page.png"}}"#,
            "malformed atlas: frame 'x.png': 'frame': 'h' is missing or not a number"
        ),
        (
            #"{"frames": {"x.png": {"frame": {"x": 0, "y": 0, "w": 8, "h": 8}, "rotated": 1}}, "meta": {"image": "page.png"}}"#,
            "malformed atlas: frame 'x.png': 'rotated' is not true or false"
        ),
        (#"{"frames": {}, "meta": {}}"#, "malformed atlas: 'meta': 'image' is missing or not a string"),
        (#"{"frames": [{"frame": {}}], "meta": {"image": "page.png"}}"#, "malformed atlas: frames[0]: 'filename' is missing or not a string"),
        (#"{"frames": 3, "meta": {"image": "page.png"}}"#, "malformed atlas: 'frames' is missing or neither an object nor a list"),
        (#"{"frames": {"#, "malformed atlas: not valid JSON: the text ends inside a value, at line 1, column 13 (after 12 bytes): cut short?"),
        ("{\"frames\": {},\n \"meta\": [1,,2]}", "malformed atlas: not valid JSON: Invalid value around character 27, at line 2, column 13"),
    ])
    func malformedDescriptorsAreRefusedWithTheCause(json: String, reason: String) async throws {
        let atlas = try directory.write("bad.json", text: json)
        let error = try #require(try await load([atlas]).errors.first)
        #expect(error.path == atlas && error.category == .corrupt)
        #expect(error.reason.hasPrefix(reason), "\(error.reason)")
    }

    @Test func malformedLibGDXNamesTheRegionAndLine() async throws {
        let atlas = try directory.write("bad.atlas", text: "page.png\nsize: 32, 32\nhero\n  bounds: 1, 2, x, 4\n")
        let error = try #require(try await load([atlas]).errors.first)
        #expect(error.reason == "malformed atlas: region 'hero', line 4: 'bounds' needs 4 whole numbers, got '1, 2, x, 4'", "\(error)")
    }

    /// Found by Fuzz/run atlas: the frame image was allocated at the declared original size,
    /// whose byte count overflowed (a trap) or could exhaust memory.
    @Test func anImplausibleOriginalSizeIsRefusedNotAllocated() async throws {
        let region = { (orig: String) in "page.png\nsize: 32, 32\nhero\n  xy: 0, 0\n  size: 8, 8\n  orig: \(orig)\n  offset: 0, 0\n" }
        let large = try directory.write("large.atlas", text: region("40000, 40000"))
        #expect(
            try await load([large]).errors.first?.reason
                == "malformed atlas: frame 'hero' declares an original size of 40000x40000 (at most 32768x32768)")
        let huge = try directory.write("huge.atlas", text: region("4294967296, 4294967296"))
        #expect(
            try await load([huge]).errors.first?.reason
                == "malformed atlas: region 'hero', line 6: 'orig' value 4294967296 is out of range (at most 1000000000 either way)")
        let frame = AtlasFrame(
            name: "far", page: 0, rect: PixelRect(x: 0, y: 0, width: 8, height: 8), rotation: .none,
            offsetX: .min, offsetY: 0, sourceWidth: 8, sourceHeight: 8)
        let page = AtlasPage(path: "page.png", texture: try PNGDecoder.decode(Self.page))
        #expect(throws: AtlasError.malformed(file: "", detail: "frame 'far' declares a trim offset of (\(Int.min), 0) (at most 32768 either way)")) {
            try TextureAtlas(format: .texturePackerHash, pages: [page], frames: [frame]).image(of: frame)
        }
        let lost = AtlasFrame(
            name: "lost", page: .max, rect: PixelRect(x: 0, y: 0, width: 8, height: 8), rotation: .none,
            offsetX: 0, offsetY: 0, sourceWidth: 8, sourceHeight: 8)
        #expect(throws: AtlasError.unknownPage(file: "", frame: "lost", page: "index \(Int.max)")) {
            try TextureAtlas(format: .texturePackerHash, pages: [page], frames: []).image(of: lost)
        }
    }

    /// Review after that finding: numbers no real atlas has, whose sums (flipping libGDX and
    /// SpriteKit offsets, testing overlaps) overflowed, are refused where they are read.
    @Test func numbersPastAnyRealAtlasAreRefusedWhereTheyAreRead() async throws {
        let gdx = try directory.write("far.atlas", text: "page.png\nsize: 32, 32\na\n  xy: \(Int.max), 0\n  size: 16, 16\n")
        #expect(
            try await load([gdx]).errors.first?.reason
                == "malformed atlas: region 'a', line 4: 'xy' value 9223372036854775807 is out of range (at most 1000000000 either way)")
        let json = try descriptor("far.json", frames: #"{"a.png": {"frame": {"x": 4e9, "y": 0, "w": 16, "h": 16}}}"#)
        #expect(
            try await load([json]).errors.first?.reason
                == "malformed atlas: frame 'a.png': 'frame': 'x' is not a whole number of at most 1000000000: 4000000000.0")
        for rect in ["{{1e300,0},{8,8}}", "{{nan,0},{8,8}}"] {
            let plist = """
                <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>images</key><array><dict>
                <key>path</key><string>page.png</string><key>size</key><string>{32,32}</string><key>subimages</key><array><dict>
                <key>name</key><string>a.png</string><key>textureRect</key><string>\(rect)</string></dict></array></dict></array></dict></plist>
                """
            try directory.write("sheet.atlasc/sheet.plist", text: plist)
            #expect(
                throws: AtlasError.malformed(
                    file: directory.file("sheet.atlasc/sheet.plist"),
                    detail: "sheet.plist: subimage 'a.png': 'textureRect' is missing or not 4 numbers")
            ) {
                try AtlasLoader.describe(path: directory.file("sheet.atlasc"))
            }
        }
        let far = PixelRect(x: .max, y: 0, width: 16, height: 16)
        #expect(far.maxX == .max && !far.isInside(width: 32, height: 32))
        #expect(PixelRect(x: 16, y: 16, width: 16, height: 16).isInside(width: 32, height: 32))
    }

    /// Xcode writes XML or binary property lists; an old-style text one is refused before
    /// CoreFoundation's parser could log about it on the user's stderr (seen while fuzzing).
    @Test func aCompiledAtlasWithAnOldStylePropertyListIsRefused() throws {
        try directory.write("old.atlasc/old.plist", text: "{ images = ( { path = page.png; } ); }")
        #expect(throws: AtlasError.malformed(file: directory.file("old.atlasc/old.plist"), detail: "old.plist: not a property list")) {
            try AtlasLoader.describe(path: directory.file("old.atlasc"))
        }
    }

    @Test func aFileThatIsNoAtlasIsRefusedAsSuch() async throws {
        let report = try await load([directory.file("page.png")].map { $0 })  // claimed by the PNG plugin: fine
        #expect(report.everythingLoaded)
        let forced = try await coordinator.start([AssetRequest(path: directory.file("page.png"), plugin: "atlas")]).finished()
        let error = try #require(forced.results.first?.outcome.error)
        #expect(error.reason == "not an atlas: neither TexturePacker JSON nor libGDX text" && error.category == .unsupported)
    }

    /// JSON asked for as an atlas that is not one says so, naming the file, and is never read as
    /// libGDX text (whose first line would be a page named `{`).
    @Test(arguments: [
        (
            "{\n",
            "not valid JSON (the text ends inside a value, at line 2, column 1 (after 2 bytes): cut short?); a JSON atlas is an object with \"frames\" or \"textures\" (TexturePacker's keys)"
        ),
        ("[1,2]", "a JSON array, where a JSON atlas is an object with \"frames\" or \"textures\" (TexturePacker's keys)"),
        (#"{"levels": [1]}"#, "a JSON object without \"frames\" or \"textures\" (TexturePacker's keys)"),
        ("42", "a single JSON value, where a JSON atlas is an object with \"frames\" or \"textures\" (TexturePacker's keys)"),
    ])
    func jsonThatIsNoAtlasIsRefusedAsSuch(json: String, detail: String) async throws {
        let file = try directory.write("j/data.json", text: json)
        let report = try await coordinator.start([AssetRequest(path: file, plugin: "atlas")]).finished()
        let error = try #require(report.errors.first)
        #expect(error.path == file && error.category == .unsupported && error.reason == "not an atlas: " + detail, "\(error)")
        // Walked, such a file is data nobody claims: skipped and listed, as a level's JSON is.
        let walked = try await coordinator.start([.folder(directory.file("j"))]).finished()
        #expect(walked.everythingLoaded && walked.skippedPaths == [file])
    }

    @Test func anAtlasWhoseKeysComeLateIsReadWhenAskedFor() async throws {
        let padding = String(repeating: " ", count: 600)
        let file = try directory.write(
            "late.json", text: #"{"meta": {"image": "page.png"}, "pad": "\#(padding)", "frames": \#(Self.twoFrames)}"#)
        let report = try await coordinator.start([AssetRequest(path: file, plugin: "atlas")]).finished()
        #expect((report.results.first?.outcome.asset as? TextureAtlas)?.frameNames == ["a.png", "b.png"], "\(report.errors)")
    }

    @Test(arguments: [(#""0.5""#, 0.5), ("2", 2.0), ("1.5", 1.5)])
    func scaleMayBeAStringOrANumber(json: String, scale: Double) async throws {
        let atlas = try directory.write("scaled.json", text: #"{"frames": {}, "meta": {"image": "page.png", "scale": \#(json)}}"#)
        let report = try await load([atlas])
        #expect((report.results.first?.outcome.asset as? TextureAtlas)?.scale == scale, "\(report.errors)")
    }

    @Test func multipackCyclesEnd() async throws {
        try directory.write(
            "a.json",
            text:
                #"{"frames": {"a.png": {"frame": {"x": 0, "y": 0, "w": 8, "h": 8}}}, "meta": {"image": "page.png", "related_multi_packs": ["b.json"]}}"#
        )
        try directory.write(
            "b.json",
            text:
                #"{"frames": {"b.png": {"frame": {"x": 8, "y": 0, "w": 8, "h": 8}}}, "meta": {"image": "page.png", "related_multi_packs": ["a.json"]}}"#
        )
        let report = try await load([directory.file("a.json")])
        #expect(report.everythingLoaded, "\(report.errors)")
        let atlas = try #require(coordinator.assets.asset(atPath: directory.file("a.json")) as? TextureAtlas)
        #expect(atlas.frameNames == ["a.png", "b.png"] && atlas.pages.count == 2)
    }

    @Test func atlasJSONIsClaimedByContentAndOtherJSONIsNot() throws {
        let atlas = try descriptor("ui.json", frames: Self.twoFrames)
        let other = try directory.write("settings.json", text: #"{"volume": 3, "music": true}"#)
        let registry = try PluginRegistry([PNGLoader(), AtlasLoader()])
        #expect(registry.claimant(of: atlas)?.identifier == "atlas")
        #expect(registry.claimant(of: other) == nil)
    }
}
