import Foundation
import Preload
@testable import PreloadAnimation
import PreloadTestSupport
import Testing

/// Real GIFs load frame for frame as browsers and the GIF89a specification show them, with
/// their delays and loop counts.
@Suite struct GIFLoaderTests {
    typealias F = GIFFixtures

    /// Every frame equals the reference, pixel for pixel. Where Pillow composites differently
    /// (`pillowEqual` false: disposal 2 on a frame without a transparent index, which Pillow
    /// paints with the background colour, and the screen outside a first frame that does not
    /// cover it), the reference is the specification's and browsers' transparent.
    @Test(arguments: GIFFixtures.names) func everyFrameEqualsTheReference(name: String) throws {
        let reference = try #require(F.references[name])
        let (animation, _) = try GIFLoader.animation(from: F.file(name))
        #expect(animation.width == reference.width && animation.height == reference.height)
        let expected = try F.frames(name)
        try #require(animation.frames.count == expected.count)
        for (index, frame) in expected.enumerated() {
            let difference = F.firstDifference(animation.canvasPixels(ofFrame: index), frame, width: reference.width)
            #expect(difference == nil, "\(name) frame \(index + 1): \(difference ?? "")")
        }
    }

    /// Delays are the file's, except 0 and 10 ms (0 or 1 centisecond), which show for 100 ms as
    /// browsers show them; NETSCAPE2.0's value `n` repeats `n` times after the first play
    /// (`loopCount` n + 1), 0 forever (`loopCount` 0), no extension plays once.
    @Test(arguments: GIFFixtures.names) func durationsAndLoopCountAreTheFiles(name: String) throws {
        let reference = try #require(F.references[name])
        let animation = try GIFLoader.animation(from: F.file(name)).animation
        #expect(animation.frames.map(\.durationMilliseconds) == reference.durations.map { $0 <= 10 ? 100 : $0 })
        let loop = reference.pillowLoop.map { $0 == 0 ? 0 : $0 + 1 } ?? 1
        #expect(animation.loopCount == loop)
    }

    @Test func theFixturesCoverWhatTheTestsClaim() {
        #expect(F.references["static_transparent"]?.durations == [0])
        #expect(F.references["frog_five"]?.pillowLoop == 4 && F.references["frog_once"]?.pillowLoop == nil)
        #expect(F.references["animated_transparent_loop"]?.pillowEqual == [true, true, false, false])
    }

    @Test func theBrowsersDelayRule() throws {
        var bytes = F.file("animated_loop")
        let controls = F.blocks(bytes).controls
        for (control, centiseconds) in zip(controls, [0, 1, 2, 300]) {
            bytes[control + 1] = UInt8(centiseconds & 255)
            bytes[control + 2] = UInt8(centiseconds >> 8)
        }
        let animation = try GIFLoader.animation(from: bytes).animation
        #expect(animation.frames.map(\.durationMilliseconds) == [100, 100, 20, 3000])
    }

    @Test func frog5PlaysFiveTimesThenStaysOnItsLastFrame() throws {
        let animation = try GIFLoader.animation(from: F.file("frog_five")).animation
        #expect(animation.loopCount == 5)
        let total = animation.frames.reduce(0) { $0 + $1.durationMilliseconds }
        #expect(animation.frameIndex(at: .milliseconds(4 * total + 10)) == 0)
        #expect(animation.frameIndex(at: .milliseconds(5 * total + 10)) == 3)
    }

    @Test func aFrameOutsideTheScreenIsClippedWithAWarning() throws {
        let (animation, warnings) = try GIFLoader.animation(from: F.file("animated_transparent_loop_frames_out_of_bounds"))
        #expect(animation.frames.count == 4)
        #expect(warnings.map(\.code) == [.gifFrameOutsideScreen])
        #expect(warnings.first?.message == "frames 1, 4 reach past the 100x100 logical screen: the part outside is not drawn")
    }

    /// Disposal 4, undefined by the specification, is read as 3, as browsers read it.
    @Test func disposalFourIsRestorePrevious() throws {
        var bytes = F.file("animated_transparent_restoreprev_loop")
        let controls = F.blocks(bytes).controls
        for control in controls.dropFirst() { bytes[control] = bytes[control] & ~0x1C | 4 << 2 }
        let (animation, warnings) = try GIFLoader.animation(from: bytes)
        let expected = try F.frames("animated_transparent_restoreprev_loop")
        #expect((0..<4).map { animation.canvasPixels(ofFrame: $0) } == expected)
        #expect(warnings.map(\.code) == [.gifDisposal])
        #expect(warnings.first?.message.hasPrefix("undefined disposal methods: frame 2's 4 read as 3 (restore previous)") == true)
    }

    @Test func aFileEndingAfterAFrameWithoutItsTrailerLoadsItsFrames() throws {
        let bytes = F.file("animated_loop")
        let (animation, warnings) = try GIFLoader.animation(from: Array(bytes.dropLast()))
        #expect(animation.frames.count == 4)
        #expect(warnings.map(\.message) == ["the file ends after frame 4 without its trailer: the 4 frames before it load"])
    }

    @Test func theSignatureIsGIF87aOrGIF89a() {
        let loader = GIFLoader()
        #expect(loader.matchesSignature(Array("GIF89a".utf8)) && loader.matchesSignature(Array("GIF87a".utf8)))
        #expect(!loader.matchesSignature(Array("GIF88a".utf8)) && !loader.matchesSignature(Array("GIF8".utf8)))
        #expect(loader.fileExtensions == ["gif"] && loader.assetKind == .animation)
    }

    @Test func withoutGiflibAGIFFailsNamingThePackage() {
        let missing = GIFLibrary.opened(fileNames: ["libgif.so.0-not-installed"])
        #expect(throws: MissingSystemLibrary.self) { try missing.get() }
        let message = (try? missing.get()).map { _ in "" } ?? "\(missing)"
        #expect(message.contains("giflib") && message.contains("libgif7"))
    }

    @Test func aFolderOfGIFsLoadsAndADamagedOneFailsAlone() async throws {
        let directory = try TemporaryDirectory("gif-loader-tests")
        try directory.write("walk.gif", F.file("animated_loop_interlaced"))
        try directory.write("cut.gif", Array(F.file("animated_loop").prefix(600)))
        try directory.write("disguised.bin", F.file("frog_five"))
        let coordinator = try PreloadCoordinator(plugins: [GIFLoader()])
        let report = try await coordinator.preload([.folder(directory.path, name: "sprites"), AssetRequest(path: directory.file("disguised.bin"))])
        #expect(report.results.count == 3 && report.failed.count == 1)
        let message = report.failed.first?.outcome.error.map { "\($0)" } ?? ""
        #expect(message.contains("cut.gif") && message.contains("truncated GIF: the file ends inside frame 1's pixels (40 of 100 rows read)"))
        let walk = try #require(coordinator.assets.asset(named: "sprites/walk.gif", as: SpriteAnimation.self))
        #expect(walk.frames.count == 4 && walk.loopCount == 0)
        #expect(walk.assetDescription(checksums: nil).summary == "animation 100x100, 4 frames, 4000 ms, loops, 0 tags")
        let disguised = try #require(report.results.first { $0.request.path.hasSuffix("disguised.bin") })
        #expect(disguised.plugin == "gif")
        let frog = try #require(disguised.outcome.asset as? SpriteAnimation)
        #expect(frog.loopCount == 5 && frog.assetDescription(checksums: nil).summary?.contains("plays 5 times") == true)
    }
}
