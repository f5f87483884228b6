import Foundation
import Preload
import PreloadAnimation
import PreloadAtlas
import PreloadAuthoring
import PreloadBaked
import PreloadGPU
import PreloadPNG
import PreloadTestSupport
import Testing

/// Animations bake into a pack as their frame table and their pages, and load back as views of
/// the mapped pack: the same canvas pixels per frame, durations, tags, loop count and
/// description as the loose load, from an `.aseprite` file and from Aseprite's sheet export.
@Suite struct BakedAnimationTests {
    typealias F = AsepriteFixture

    /// A 16x12 sprite of four frames: trimmed, a linked (shared) frame, an empty one; tags in
    /// every direction, one with a repeat count.
    static func walker() throws -> AsepriteFixture {
        var file = F(width: 16, height: 12)
        var body: [UInt8] = []
        for pixel in 0..<6 * 4 { body += [UInt8(pixel * 9), 200, UInt8(255 - pixel * 9), UInt8(128 + pixel * 5)] }
        file.frames = [
            F.Frame(
                duration: 80,
                chunks: [
                    F.layer("body"),
                    F.tags([("walk", 0, 2, 0, 0), ("back", 1, 3, 1, 2), ("bob", 0, 3, 2, 3), ("bob-back", 2, 3, 3, 0)]),
                    try F.compressedCel(layer: 0, x: 3, y: 2, width: 6, height: 4, pixels: body),
                ]),
            F.Frame(duration: 120, chunks: [F.rawCel(layer: 0, x: 10, y: 7, width: 2, height: 1, pixels: [1, 2, 3, 255, 4, 5, 6, 90])]),
            F.Frame(duration: 80, chunks: [F.linkedCel(layer: 0, frame: 0)]),
            F.Frame(duration: 200, chunks: []),
        ]
        return file
    }

    /// The plugins a game loading either form, and packs, registers.
    static func plugins() -> [any LoaderPlugin] { [PNGLoader(), AsepriteSheetLoader(), AsepriteLoader(), AtlasLoader(), BakedPackLoader()] }

    /// `walk.aseprite`, `hero.aseprite` and the sheet export `sheet/hero.json` (+ `hero.png`) in
    /// `directory`, loaded loose and baked into `anims.bake`; the loose coordinator and the pack.
    static func bakedFolder(_ directory: TemporaryDirectory) async throws -> (loose: PreloadCoordinator, pack: String) {
        try directory.write("anims/walk.aseprite", try walker().bytes)
        try directory.write("anims/hero.aseprite", try AsepriteFixture.twoLayers().bytes)
        try directory.write("anims/sheet/hero.png", AsepriteSheetLoaderTests.sheet(try AsepriteSheetLoaderTests.reference()).png)
        try directory.write("anims/sheet/hero.json", text: AsepriteSheetLoaderTests.hash())
        // Saved by Aseprite (bevy_aseprite_ultra, MIT): slices with a pivot and colours; tags with user data.
        try directory.write("anims/ghost_slices.aseprite", try AsepriteSlicesTests.fixture("ghost_slices.aseprite"))
        try directory.write("anims/player.aseprite", try AsepriteSlicesTests.fixture("player.aseprite"))
        let loose = try PreloadCoordinator(plugins: plugins())
        let report = try await loose.preload([.folder(directory.file("anims"), name: "anims")])
        #expect(report.everythingLoaded, "\(report.errors)")
        let pack = directory.file("anims.bake")
        let summary = try BakeWriter.write(report, to: pack)
        #expect(summary.count(ofKind: "animation") == 5, "\(summary)")
        return (loose, pack)
    }

    static let names = [
        "anims/ghost_slices.aseprite", "anims/hero.aseprite", "anims/player.aseprite", "anims/sheet/hero.json", "anims/walk.aseprite",
    ]

    /// Every frame's canvas pixels, durations, tags, loop count and size of `baked` are `loose`'s.
    static func expectSame(_ baked: SpriteAnimation, _ loose: SpriteAnimation, _ name: String) {
        #expect(baked.width == loose.width && baked.height == loose.height && baked.loopCount == loose.loopCount, "\(name)")
        #expect(baked.frames == loose.frames && baked.tags == loose.tags, "\(name)")
        #expect(baked.slices == loose.slices && baked.userData == loose.userData, "\(name)")
        #expect(baked.frames.map(\.durationMilliseconds) == loose.frames.map(\.durationMilliseconds), "\(name)")
        for index in loose.frames.indices {
            #expect(!loose.canvasPixels(ofFrame: index).isEmpty)
            #expect(baked.canvasPixels(ofFrame: index) == loose.canvasPixels(ofFrame: index), "\(name) frame \(index)")
        }
    }

    @Test func anAsepriteFileAndASheetExportBakeAndLoadMappedWithEqualFrames() async throws {
        let directory = try TemporaryDirectory("baked-animation")
        let (loose, pack) = try await Self.bakedFolder(directory)
        let baked = try PreloadCoordinator(plugins: Self.plugins())
        let report = try await baked.preload([AssetRequest(path: pack)])
        #expect(report.everythingLoaded && report.warned.isEmpty, "\(report.errors)")
        #expect(report.results.map(\.request.name).filter { !$0.contains("#") && !$0.hasSuffix(".png") } == Self.names)
        for name in Self.names {
            let animation = try #require(baked.assets.asset(named: name, as: SpriteAnimation.self), "\(name)")
            let original = try #require(loose.assets.asset(named: name, as: SpriteAnimation.self), "\(name)")
            Self.expectSame(animation, original, name)
            #expect(animation.pages.map(\.pixels) == original.pages.map(\.pixels), "\(name)")
            #expect(animation.pages.allSatisfy { $0.pixels.isMapped }, "\(name)'s pages are views into the pack, not copies")
            // `--json` and `--verbose` say the same of it: its fields, its summary.
            #expect(animation.assetDescription(checksums: nil) == original.assetDescription(checksums: nil), "\(name)")
        }
        #expect(baked.assets.asset(named: "anims/walk.aseprite", as: SpriteAnimation.self)?.frameIndex(at: .milliseconds(90), tag: "bob") == 1)
    }

    @Test func aPluginAloneReadsItsAnimationsBack() async throws {
        let directory = try TemporaryDirectory("baked-animation-alone")
        let (_, pack) = try await Self.bakedFolder(directory)
        for plugin in [AsepriteLoader() as any LoaderPlugin, AsepriteSheetLoader(), APNGLoader()] {
            let baked = try PreloadCoordinator(plugins: [plugin, BakedPackLoader()])
            let report = try await baked.preload([AssetRequest(path: pack)])
            #expect(report.everythingLoaded, "\(plugin.identifier): \(report.errors)")
            #expect(baked.assets.asset(named: "anims/walk.aseprite", as: SpriteAnimation.self)?.frames.count == 4)
        }
    }

    /// A GIF and an animated WebP baked into a pack: a game that registers only `GIFLoader` (or
    /// only `AnimatedWebPLoader`) beside the pack's plugin loads both back as they loaded loose.
    @Test func aGIFOrAnimatedWebPPluginAloneReadsItsBakedPackBack() async throws {
        let directory = try TemporaryDirectory("baked-animation-gif-webp")
        try directory.write("anims/frog.gif", GIFFixtures.file("animated_transparent_frame_restorebackground_loop"))
        try directory.write("anims/coin.webp", try AnimatedWebPFixtures.bytes("lossy-alpha-dispose.webp"))
        let loose = try PreloadCoordinator(plugins: [GIFLoader(), AnimatedWebPLoader()])
        let report = try await loose.preload([
            AssetRequest(path: directory.file("anims/frog.gif"), name: "frog.gif"),
            AssetRequest(path: directory.file("anims/coin.webp"), name: "coin.webp", plugin: "animated-webp"),
        ])
        #expect(report.everythingLoaded, "\(report.errors)")
        let pack = directory.file("anims.bake")
        #expect(try BakeWriter.write(report, to: pack).count(ofKind: "animation") == 2)
        for plugin in [GIFLoader() as any LoaderPlugin, AnimatedWebPLoader()] {
            let baked = try PreloadCoordinator(plugins: [plugin, BakedPackLoader()])
            let back = try await baked.preload([AssetRequest(path: pack)])
            #expect(back.everythingLoaded, "\(plugin.identifier): \(back.errors)")
            for name in ["frog.gif", "coin.webp"] {
                let animation = try #require(baked.assets.asset(named: name, as: SpriteAnimation.self), "\(plugin.identifier): \(name)")
                let original = try #require(loose.assets.asset(named: name, as: SpriteAnimation.self))
                #expect(original.frames.count > 1, "\(name) is animated")
                Self.expectSame(animation, original, "\(plugin.identifier): \(name)")
            }
        }
    }

    @Test func withGPUPagesTheAnimationLoadsItsFramesAndExportsADecodedSheet() async throws {
        let directory = try TemporaryDirectory("baked-animation-gpu")
        try directory.write("anims/walk.aseprite", try Self.walker().bytes)
        let loose = try PreloadCoordinator(plugins: Self.plugins())
        let report = try await loose.preload([.folder(directory.file("anims"), name: "anims")])
        let pack = directory.file("gpu.bake")
        try BakeWriter.write(report, to: pack, textures: .init(bake: GPUTextureBake(settings: .init(target: .bc, quality: .fast))))
        let baked = try PreloadCoordinator(plugins: Self.plugins())
        #expect(try await baked.preload([AssetRequest(path: pack)]).everythingLoaded)
        let animation = try #require(baked.assets.asset(named: "anims/walk.aseprite", as: SpriteAnimation.self))
        let original = try #require(loose.assets.asset(named: "anims/walk.aseprite", as: SpriteAnimation.self))
        #expect(animation.pages.map(\.pixelFormat) == [.bc7] && animation.pages[0].pixels.isMapped, "the page as the GPU takes it, mapped")
        #expect(animation.frames == original.frames && animation.tags == original.tags)
        #expect(animation.canvasPixels(ofFrame: 0).isEmpty, "no RGBA8 to draw from: empty, not a read past the blocks")
        #expect(animation.assetDescription(checksums: nil).summary == original.assetDescription(checksums: nil).summary)
        // Exported, the sheet is the page's blocks decoded; the JSON loads back with every frame.
        _ = try AssetExporter.write(try await baked.preload([AssetRequest(path: pack)]), to: directory.file("out"))
        let again = try PreloadCoordinator(plugins: [PNGLoader(), AsepriteSheetLoader()])
        #expect(try await again.preload([AssetRequest(path: directory.file("out/anims/walk.aseprite.json"), name: "again")]).everythingLoaded)
        let back = try #require(again.assets.asset(named: "again", as: SpriteAnimation.self))
        #expect(back.frames.map(\.durationMilliseconds) == original.frames.map(\.durationMilliseconds) && back.tags == original.tags)
    }

    /// The entry of `animation` (its pages entries 0...), damaged by `damage`, read back.
    static func unbake(_ animation: SpriteAnimation, damage: (inout [UInt8]) -> Void) throws -> SpriteAnimation {
        var bytes = try animation.baked(pageEntries: Array(animation.pages.indices)).bytes.array
        damage(&bytes)
        let entry = BakedEntryContents(
            name: "walk", path: "anims.bake#walk", kind: "animation", bytes: AssetBytes(bytes), width: 0, height: 0, kindBits: 0,
            source: Pages(pages: animation.pages))
        return try #require(try SpriteAnimation.unbaked(from: entry) as? SpriteAnimation)
    }

    /// A pack's pages by entry number, its failures named.
    struct Pages: BakedEntrySource {
        var pages: [Texture]
        func page(_ entry: Int, path: String) throws -> Texture {
            guard pages.indices.contains(entry) else { throw Malformed(why: "entry \(entry) is not a texture") }
            return pages[entry]
        }
        func malformed(_ why: String) -> any Error { Malformed(why: why) }
        func warn(_ warning: AssetWarning) throws {}
    }

    struct Malformed: Error, CustomStringConvertible {
        var why: String
        var description: String { "anims.bake#walk: \(why)" }
    }

    static func setUInt32(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for byte in 0..<4 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
    }

    @Test func theEntryReadsBackAsTheAnimation() throws {
        let animation = try AsepriteLoader.animation(from: try Self.walker().bytes).animation
        let read = try Self.unbake(animation) { _ in }
        Self.expectSame(read, animation, "walk")
        #expect(read.pages.map(\.pixels) == animation.pages.map(\.pixels))
    }

    @Test func slicesAndUserDataWithEveryPropertyTypeReadBack() throws {
        var animation = try AsepriteLoader.animation(from: try AsepriteSlicesTests.fixture("ghost_slices.aseprite")).animation
        #expect(!animation.slices.isEmpty)
        let every: [String: AnimationProperty] = [
            "b": .bool(true), "i": .int(.min), "u": .unsigned(.max), "fixed": .fixed(-0x18000), "d": .double(-0.25), "s": .string("text \"quoted\""),
            "pt": .point(x: -1, y: 2), "sz": .size(width: 3, height: 4), "r": .rect(x: 1, y: 2, width: 3, height: 4),
            "v": .vector([.bool(false), .string("x"), .vector([])]), "m": .map(["deep": .map(["deeper": .unsigned(9)])]), "id": .uuid(Array(0..<16)),
        ]
        animation.userData = AnimationUserData(
            text: "the sprite", color: .init(red: 1, green: 2, blue: 3, alpha: 4), properties: ["": every, "ext": ["n": .int(3)]])
        animation.tags = [AnimationTag(name: "all", from: 0, to: animation.frames.count - 1, userData: AnimationUserData(text: "tagged"))]
        animation.slices.append(
            AnimationSlice(
                name: "nine",
                keys: [
                    .init(
                        frame: 0, bounds: PixelRect(x: -2, y: 1, width: 8, height: 8), center: PixelRect(x: 2, y: 2, width: 4, height: 4),
                        pivot: .init(x: 4, y: 7)), .init(frame: 1, bounds: PixelRect(x: 0, y: 0, width: 0, height: 0)),
                ],
                userData: AnimationUserData(properties: ["": ["hidden": .bool(false)]])))
        let read = try Self.unbake(animation) { _ in }
        #expect(read.slices == animation.slices && read.userData == animation.userData && read.tags == animation.tags)
        let entry = try animation.baked(pageEntries: [0]).bytes.array
        #expect(entry[4] == 2, "slices and user data make a version 2 entry")
        var plain = animation
        (plain.slices, plain.userData, plain.tags) = ([], AnimationUserData(), [AnimationTag(name: "all", from: 0, to: 0)])
        #expect(try plain.baked(pageEntries: [0]).bytes.array[4] == 1, "without them, version 1")
        // A slice key whose bounds are three numbers fails by name.
        let error = #expect(throws: Malformed.self) {
            try Self.unbake(animation) { bytes in
                let json = 32 + animation.frames.count * 32
                let text = String(decoding: bytes[json...], as: UTF8.self).replacingOccurrences(of: "[-2,1,8,8]", with: "[-2,1,8]")
                bytes = Array(bytes[..<json]) + Array(text.utf8)
                Self.setUInt32(UInt32(bytes.count - json), at: 24, in: &bytes)
            }
        }
        #expect(error.map { "\($0)" }?.contains("animation slice 'nine': a key's bounds is not [x, y, w, h]") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("truncated", "does not hold what its header counts"),
        ("cut to its header", "does not hold what its header counts"),
        ("empty", "no PANI header"),
        ("more frames than it holds", "does not hold what its header counts (5 frames"),
        ("fewer frames than it holds", "does not hold what its header counts (3 frames"),
        ("a longer JSON than it holds", "does not hold what its header counts"),
        ("a frame outside its page", "animation frame 1's (9999, "),
        ("a frame outside the canvas", "animation frame 0's (3, 2, 6x4) lies outside its 4x12 canvas"),
        ("a frame on a page that is not there", "animation frame 2 is on page index 7, and the animation has 1 pages"),
        ("a tag past the frames", "animation tag 'walk' runs from frame 0 to 9"),
        ("an unknown direction", "unknown direction 'sideways'"),
        ("a later version", "animation entry version 3; this reader reads versions 1 to 2"),
        ("user data in version 1", "a version 1 animation entry holds slices or user data"),
        ("tables that are not JSON", "its animation tables do not read"),
        ("a colour that is not one", "a user data colour is not #rrggbbaa: '#0000zzff'"),
    ])
    func aDamagedEntryFailsNamingItsCause(damage: String, cause: String) throws {
        let animation = try AsepriteLoader.animation(from: try Self.walker().bytes).animation
        let error = #expect(throws: Malformed.self, "\(damage)") {
            try Self.unbake(animation) { bytes in
                let json = 32 + 4 * 32
                switch damage {
                case "truncated": bytes.removeLast(7)
                case "cut to its header": bytes.removeLast(bytes.count - 32)
                case "empty": bytes = []
                case "more frames than it holds": Self.setUInt32(5, at: 20, in: &bytes)
                case "fewer frames than it holds": Self.setUInt32(3, at: 20, in: &bytes)
                case "a longer JSON than it holds": Self.setUInt32(UInt32(bytes.count), at: 24, in: &bytes)
                case "a frame outside its page": Self.setUInt32(9999, at: 32 + 32 + 4, in: &bytes)
                case "a frame outside the canvas": Self.setUInt32(4, at: 8, in: &bytes)
                case "a frame on a page that is not there": Self.setUInt32(7, at: 32 + 2 * 32, in: &bytes)
                case "a tag past the frames":
                    let text = String(decoding: bytes[json...], as: UTF8.self).replacingOccurrences(of: #""to":2"#, with: #""to":9"#)
                    bytes = Array(bytes[..<json]) + Array(text.utf8)
                case "an unknown direction":
                    let text = String(decoding: bytes[json...], as: UTF8.self).replacingOccurrences(of: "reverse", with: "sideways")
                    bytes = Array(bytes[..<json]) + Array(text.utf8)
                    Self.setUInt32(UInt32(bytes.count - json), at: 24, in: &bytes)
                case "a later version": bytes[4] = 3
                case "user data in version 1": bytes[4] = 1
                case "tables that are not JSON": bytes[json] = UInt8(ascii: "]")
                case "a colour that is not one":
                    let text = String(decoding: bytes[json...], as: UTF8.self).replacingOccurrences(of: "#000000ff", with: "#0000zzff")
                    bytes = Array(bytes[..<json]) + Array(text.utf8)
                default: Issue.record("no such damage: \(damage)")
                }
            }
        }
        #expect(error.map { "\($0)" }?.contains(cause) == true, "\(damage): \(error.map { "\($0)" } ?? "no error")")
    }

    @Test func aDamagedTableInAPackFailsThatEntryByNameAndTheOthersLoad() async throws {
        let directory = try TemporaryDirectory("baked-animation-damage")
        let (_, pack) = try await Self.bakedFolder(directory)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pack)))
        // walk.aseprite's entry (version 2: its tags have colours): a 16x12 canvas of 4 frames; its frame count made 5.
        let header: [UInt8] = Array("PANI".utf8) + [2, 0, 0, 0, 16, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0]
        let at = try #require(bytes.firstRange(of: header))
        bytes[at.lowerBound + 20] = 5
        try directory.write("damaged.bake", bytes)
        let baked = try PreloadCoordinator(plugins: Array(Self.plugins().dropLast()) + [BakedPackLoader(verification: .indexOnly)])
        let report = try await baked.preload([AssetRequest(path: directory.file("damaged.bake"))])
        #expect(report.failed.map(\.request.name) == ["anims/walk.aseprite"])
        let message = report.failed.first?.outcome.error.map { "\($0)" } ?? ""
        #expect(
            message.contains("damaged.bake") && message.contains("walk.aseprite") && message.contains("does not hold what its header counts"),
            "\(message)")
        #expect(baked.assets.asset(named: "anims/hero.aseprite", as: SpriteAnimation.self) != nil)
    }
}
