import Foundation
import Preload
import PreloadAnimation
import PreloadAtlas
import PreloadAuthoring
import PreloadBaked
import PreloadPNG
import PreloadTestSupport
import Testing

/// `preload export` (``AssetExporter``) writes an animation as Aseprite's sheet export: a PNG
/// sheet and a `json-hash` JSON, which the Aseprite export plugin loads back as an equal
/// animation, loose or baked.
@Suite struct AnimationExportTests {
    /// Exports what `requests` load (with `plugins`) into `out`, then loads each exported JSON
    /// back; returns the loaded originals and the exported JSON texts by store name.
    static func roundTrip(
        _ requests: [AssetRequest], plugins: [any LoaderPlugin], out: String, names: [String]
    ) async throws -> [(original: SpriteAnimation, again: SpriteAnimation, json: String)] {
        let loader = try PreloadCoordinator(plugins: plugins)
        let report = try await loader.preload(requests)
        #expect(report.everythingLoaded, "\(report.errors)")
        let exported = try AssetExporter.write(report, to: out)
        #expect(exported.skipped.isEmpty, "\(exported.skipped)")
        #expect(exported.files.count == names.count && exported.files.allSatisfy { $0.label.noun == "animation" }, "\(exported)")
        var pairs: [(SpriteAnimation, SpriteAnimation, String)] = []
        for name in names {
            let json = out + "/" + name + ".json"
            let again = try PreloadCoordinator(plugins: [PNGLoader(), AsepriteSheetLoader(), AtlasLoader()])
            let back = try await again.preload([AssetRequest(path: json, name: "again")])
            #expect(back.everythingLoaded && back.warned.isEmpty, "\(name): \(back.errors) \(back.warned.flatMap(\.warnings))")
            #expect(back.results.first?.plugin == "aseprite-sheet", "\(name): claimed by content")
            pairs.append(
                (
                    try #require(loader.assets.asset(named: name, as: SpriteAnimation.self)),
                    try #require(again.assets.asset(named: "again", as: SpriteAnimation.self)),
                    try String(contentsOfFile: json, encoding: .utf8)
                ))
        }
        return pairs
    }

    @Test func anAsepriteFileExportsAsASheetThatLoadsBackEqual() async throws {
        let directory = try TemporaryDirectory("animation-export")
        try directory.write("anims/walk.aseprite", try BakedAnimationTests.walker().bytes)
        try directory.write("anims/hero.aseprite", try AsepriteFixture.twoLayers().bytes)
        let names = ["anims/hero.aseprite", "anims/walk.aseprite"]
        let pairs = try await Self.roundTrip(
            [.folder(directory.file("anims"), name: "anims")], plugins: [AsepriteLoader()], out: directory.file("out"), names: names)
        for ((original, again, _), name) in zip(pairs, names) {
            BakedAnimationTests.expectSame(again, original, name)
        }
        // Aseprite's json-hash: frames named as Aseprite names them, in order; meta as it writes it.
        let json = pairs[1].json
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let frames = try #require(object["frames"] as? [String: [String: Any]])
        #expect(Set(frames.keys) == ["walk 0.aseprite", "walk 1.aseprite", "walk 2.aseprite", "walk 3.aseprite"])
        #expect(json.range(of: "walk 0.aseprite")!.lowerBound < json.range(of: "walk 1.aseprite")!.lowerBound)
        let first = try #require(frames["walk 0.aseprite"])
        #expect(Set(first.keys) == ["frame", "rotated", "trimmed", "spriteSourceSize", "sourceSize", "duration"])
        #expect(first["trimmed"] as? Bool == true && first["duration"] as? Int == 80)
        #expect(first["spriteSourceSize"] as? [String: Int] == ["x": 3, "y": 2, "w": 6, "h": 4])
        #expect(first["sourceSize"] as? [String: Int] == ["w": 16, "h": 12])
        let meta = try #require(object["meta"] as? [String: Any])
        #expect(Set(meta.keys) == ["app", "version", "image", "format", "size", "scale", "frameTags"])
        #expect(meta["image"] as? String == "walk.aseprite.png" && meta["format"] as? String == "RGBA8888")
        let tags = try #require(meta["frameTags"] as? [[String: Any]])
        #expect(tags.map { $0["direction"] as? String } == ["forward", "reverse", "pingpong", "pingpong_reverse"])
        #expect(tags.map { $0["repeat"] as? String } == [nil, "2", "3", nil])
        #expect(tags.map { $0["name"] as? String } == ["walk", "back", "bob", "bob-back"])
    }

    @Test func aBakedAnimationExportsTheSameFilesAsTheLooseOne() async throws {
        let directory = try TemporaryDirectory("animation-export-baked")
        let (_, pack) = try await BakedAnimationTests.bakedFolder(directory)
        let names = BakedAnimationTests.names
        let loose = try PreloadCoordinator(plugins: BakedAnimationTests.plugins())
        _ = try AssetExporter.write(try await loose.preload([.folder(directory.file("anims"), name: "anims")]), to: directory.file("loose"))
        let baked = try await Self.roundTrip(
            [AssetRequest(path: pack)], plugins: BakedAnimationTests.plugins(), out: directory.file("baked"), names: names)
        for ((original, again, json), name) in zip(baked, names) {
            BakedAnimationTests.expectSame(again, original, name)
            let written = try String(contentsOfFile: directory.file("loose/\(name).json"), encoding: .utf8)
            #expect(json == written, "\(name): the same JSON loose and baked")
            let sheet = try Data(contentsOf: URL(fileURLWithPath: directory.file("baked/\(name).png")))
            #expect(sheet == (try Data(contentsOf: URL(fileURLWithPath: directory.file("loose/\(name).png")))), "\(name): the same sheet")
        }
    }

    @Test func exportedAsKTX2TheJSONNamesTheSheetFileWritten() async throws {
        let directory = try TemporaryDirectory("animation-export-ktx2")
        try directory.write("anims/walk.aseprite", try BakedAnimationTests.walker().bytes)
        let report = try await PreloadCoordinator(plugins: [AsepriteLoader()]).preload([.folder(directory.file("anims"), name: "anims")])
        _ = try AssetExporter.write(report, to: directory.file("out"), textures: .ktx2(.none))
        let json = try Data(contentsOf: URL(fileURLWithPath: directory.file("out/anims/walk.aseprite.json")))
        let meta = try #require((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["meta"] as? [String: Any])
        #expect(meta["image"] as? String == "walk.aseprite.ktx2")
        #expect(FileManager.default.fileExists(atPath: directory.file("out/anims/walk.aseprite.ktx2")))
    }

    @Test func anAnimationOfEmptyFramesExportsAndLoadsBack() async throws {
        var file = AsepriteFixture(width: 5, height: 3)
        file.frames = [AsepriteFixture.Frame(duration: 40, chunks: [AsepriteFixture.layer("a")]), AsepriteFixture.Frame(duration: 60, chunks: [])]
        let directory = try TemporaryDirectory("animation-export-empty")
        try directory.write("anims/empty.aseprite", file.bytes)
        let pairs = try await Self.roundTrip(
            [.folder(directory.file("anims"), name: "anims")], plugins: [AsepriteLoader()], out: directory.file("out"),
            names: ["anims/empty.aseprite"])
        BakedAnimationTests.expectSame(pairs[0].again, pairs[0].original, "empty")
        #expect(pairs[0].again.frames.map(\.durationMilliseconds) == [40, 60])
    }

    @Test func aFrameOutsideItsPageIsNotExportedAndSaysWhy() async throws {
        let page = Texture(width: 2, height: 2, pixelFormat: .rgba8, alphaMode: .straight, pixels: AssetBytes([UInt8](repeating: 255, count: 16)))
        let animation = SpriteAnimation(
            width: 4, height: 4, pages: [page],
            frames: [
                .init(
                    page: 0, rect: PixelRect(x: 1, y: 1, width: 2, height: 2), canvasRect: PixelRect(x: 0, y: 0, width: 2, height: 2),
                    durationMilliseconds: 50)
            ])
        let directory = try TemporaryDirectory("animation-export-outside")
        try directory.write("made.anim", [0])
        let report = try await PreloadCoordinator(plugins: [Made(animation: animation)]).preload([
            AssetRequest(path: directory.file("made.anim"), name: "made.anim")
        ])
        let exported = try AssetExporter.write(report, to: directory.file("out"))
        #expect(exported.files.isEmpty && exported.textures.files.isEmpty)
        #expect(
            exported.skipped.map(\.name) == ["made.anim"] && exported.skipped.first?.reason == "frame 0 is not inside its page", "\(exported.skipped)"
        )
    }

    @Test func pagesMakeOneSheetOneBelowTheOther() async throws {
        // Two pages (3x2 and 2x1), a frame on each, a frame trimmed on a 4x4 canvas.
        let first = Texture(width: 3, height: 2, pixelFormat: .rgba8, alphaMode: .straight, pixels: AssetBytes((0..<24).map { UInt8($0 * 10) }))
        let second = Texture(width: 2, height: 1, pixelFormat: .rgba8, alphaMode: .straight, pixels: [9, 8, 7, 255, 1, 2, 3, 4])
        let animation = SpriteAnimation(
            width: 4, height: 4, pages: [first, second],
            frames: [
                .init(
                    page: 0, rect: PixelRect(x: 0, y: 0, width: 3, height: 2), canvasRect: PixelRect(x: 1, y: 1, width: 3, height: 2),
                    durationMilliseconds: 50),
                .init(
                    page: 1, rect: PixelRect(x: 0, y: 0, width: 2, height: 1), canvasRect: PixelRect(x: 0, y: 3, width: 2, height: 1),
                    durationMilliseconds: 70),
            ],
            tags: [AnimationTag(name: "all", from: 0, to: 1, direction: .pingPong, repeatCount: 4)])
        let directory = try TemporaryDirectory("animation-export-pages")
        try directory.write("made.anim", [0])
        let report = try await PreloadCoordinator(plugins: [Made(animation: animation)]).preload([
            AssetRequest(path: directory.file("made.anim"), name: "made.anim")
        ])
        let exported = try AssetExporter.write(report, to: directory.file("out"))
        #expect(exported.files.count == 1 && exported.textures.files.count == 1, "\(exported)")
        let again = try PreloadCoordinator(plugins: [PNGLoader(), AsepriteSheetLoader()])
        let back = try await again.preload([AssetRequest(path: directory.file("out/made.anim.json"), name: "again")])
        #expect(back.everythingLoaded, "\(back.errors)")
        let loaded = try #require(again.assets.asset(named: "again", as: SpriteAnimation.self))
        #expect(loaded.width == 4 && loaded.height == 4 && loaded.tags == animation.tags)
        #expect(loaded.frames.map(\.durationMilliseconds) == [50, 70])
        for index in 0..<2 { #expect(loaded.canvasPixels(ofFrame: index) == animation.canvasPixels(ofFrame: index), "frame \(index)") }
    }

    /// A plugin whose `.anim` files load as `animation`.
    struct Made: LoaderPlugin {
        var animation: SpriteAnimation
        var identifier: String { "made" }
        var assetKind: AssetKind { .animation }
        var fileExtensions: Set<String> { ["anim"] }
        func load(_ context: LoadContext) throws -> any Asset { animation }
    }
}
