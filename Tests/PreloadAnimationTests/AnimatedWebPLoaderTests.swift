import Foundation
import Preload
import PreloadAnimation
import PreloadManifest
import PreloadTestSupport
import PreloadWebP
import Testing

/// Animated WebPs load as `SpriteAnimation`s whose frames equal Pillow's (libwebp's animation
/// decoder) pixel for pixel, with its durations and loop counts; a `.webp` not named for the
/// animated-webp plugin stays a texture.
@Suite struct AnimatedWebPLoaderTests {
    @Test(arguments: AnimatedWebPFixtures.names)
    func framesEqualPillowsComposition(name: String) throws {
        let reference = try AnimatedWebPFixtures.reference(name)
        let (animation, warnings) = try AnimatedWebPLoader.animation(from: try AnimatedWebPFixtures.bytes(name))
        #expect(warnings.isEmpty)
        #expect(animation.width == reference.width && animation.height == reference.height)
        #expect(animation.frames.count == reference.frames)
        #expect(animation.frames.map(\.durationMilliseconds) == reference.durations)
        #expect(animation.loopCount == reference.loop)
        for index in 0..<min(reference.frames, animation.frames.count) {
            let differing = AnimatedWebPFixtures.differing(animation.canvasPixels(ofFrame: index), reference.canvases[index])
            let count = differing.count
            #expect(count == 0, "frame \(index + 1): \(count) pixels differ, the first at \(differing.first.map { $0 / 4 } ?? 0)")
        }
    }

    /// The fixtures hold what tells libwebp's rules apart: a frame blended over a canvas pixel it
    /// must not blend over (the last frame's cleared rectangle, a key frame) changes there.
    @Test func theFixturesBlendWhereLibwebpDoesNot() throws {
        let reference = try AnimatedWebPFixtures.reference("lossless-blend-keep.webp")
        #expect(reference.canvases[3] != reference.canvases[2])
    }

    @Test func aWebPNotNamedForTheAnimationStaysATexture() async throws {
        let directory = try TemporaryDirectory("animated-webp-claim")
        let file = try AnimatedWebPFixtures.bytes("lossy-alpha-dispose.webp")
        try directory.write("coin.webp", file)
        let coordinator = try PreloadCoordinator(plugins: [WebPLoader(), AnimatedWebPLoader()])
        let report = try await coordinator.preload([
            AssetRequest(path: directory.file("coin.webp"), name: "texture"),
            AssetRequest(path: directory.file("coin.webp"), name: "animation", plugin: "animated-webp"),
        ])
        #expect(report.everythingLoaded, "\(report.errors)")
        let texture = try #require(coordinator.assets.asset(named: "texture", as: Texture.self))
        #expect(texture.pixels.array == (try WebPDecoder.decode(file).pixels.array))
        #expect(report.warned.flatMap(\.warnings).map(\.code) == [.webpAnimatedFirstFrame])
        let animation = try #require(coordinator.assets.asset(named: "animation", as: SpriteAnimation.self))
        #expect(animation.frames.count == 5 && animation.loopCount == 3)
        let reference = try AnimatedWebPFixtures.reference("lossy-alpha-dispose.webp")
        #expect(AnimatedWebPFixtures.differing(animation.canvasPixels(ofFrame: 4), reference.canvases[4]).isEmpty)
    }

    @Test func aManifestEntryNamesThePlugin() async throws {
        let directory = try TemporaryDirectory("animated-webp-manifest")
        try directory.write("art/coin.webp", try AnimatedWebPFixtures.bytes("mixed-no-blend.webp"))
        let path = try directory.write(
            "game.json",
            text: #"{"groups": {"level": {"assets": [{"path": "art/coin.webp", "name": "coin", "plugin": "animated-webp"}, "art/coin.webp"]}}}"#)
        let plugins: [any LoaderPlugin] = [WebPLoader(), AnimatedWebPLoader()]
        let manifest = try AssetManifest(contentsOf: path, registry: try PluginRegistry(plugins))
        let groups = AssetGroups(manifest: manifest, coordinator: try PreloadCoordinator(plugins: plugins))
        let report = try await groups.preload(["level"])
        #expect(report.everythingLoaded, "\(report.errors)")
        #expect(groups.coordinator.assets.asset(named: "coin", as: SpriteAnimation.self)?.frames.count == 5)
        #expect(groups.coordinator.assets.asset(named: "art/coin.webp", as: Texture.self) != nil)
    }

    @Test func aStillWebPNamedForTheAnimationIsOneFrame() throws {
        let animated = try AnimatedWebPFixtures.bytes("lossless-blend-keep.webp")
        let first = try #require(AnimatedWebPFixtures.offset(of: "VP8L", in: animated))
        let size = Int(animated[first + 4]) | Int(animated[first + 5]) << 8 | Int(animated[first + 6]) << 16
        let chunk = Array(animated[first..<first + 8 + size + (size & 1)])
        let still = Array("RIFF".utf8) + withUnsafeBytes(of: UInt32(4 + chunk.count).littleEndian, Array.init) + Array("WEBP".utf8) + chunk
        let (animation, _) = try AnimatedWebPLoader.animation(from: still)
        let reference = try AnimatedWebPFixtures.reference("lossless-blend-keep.webp")
        #expect(animation.frames.count == 1 && animation.loopCount == 0)
        #expect(AnimatedWebPFixtures.differing(animation.canvasPixels(ofFrame: 0), reference.canvases[0]).isEmpty)
    }

    @Test func bytesAfterTheRIFFChunkAreWarnedOf() throws {
        let file = try AnimatedWebPFixtures.bytes("mixed-no-blend.webp") + [1, 2, 3]
        let (animation, warnings) = try AnimatedWebPLoader.animation(from: file)
        #expect(animation.frames.count == 5 && warnings.map(\.code) == [.webpTrailingData])
    }
}
