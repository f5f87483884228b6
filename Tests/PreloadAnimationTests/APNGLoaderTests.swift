import Preload
import PreloadAnimation
import PreloadZlib
import Testing

/// APNGs built from the specification (`APNGFixture`): frames, offsets, the three dispose and
/// two blend operations composited with pixels computed by hand, delays, plays.
@Suite struct APNGLoaderTests {
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]
    static let clear: [UInt8] = [0, 0, 0, 0]

    /// A 2x1 canvas's pixels, left then right.
    static func pixels(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] { left + right }

    @Test func framesCompositeWithEachDisposeAndBlendOperation() throws {
        typealias Frame = APNGFixture.Frame
        let file = try APNGFixture.animation(
            width: 2, height: 1,
            frames: [
                .solid(2, 1, Self.red),  // none: stays
                .solid(1, 1, Self.green, x: 1, dispose: 2),  // previous: right goes back to red
                .solid(1, 1, Self.blue, dispose: 1),  // background: left cleared after showing
                .solid(1, 1, [0, 0, 255, 128], x: 1, blend: 1),  // over red at alpha 128
                .solid(1, 1, [0, 255, 0, 64], blend: 0),  // source: replaces the cleared left, alpha and all
            ], plays: 3)
        let (animation, warnings) = try APNGLoader.animation(from: file.bytes)
        #expect(warnings.isEmpty)
        #expect(animation.width == 2 && animation.height == 1 && animation.loopCount == 3)
        #expect(animation.canvasPixels(ofFrame: 0) == Self.pixels(Self.red, Self.red))
        #expect(animation.canvasPixels(ofFrame: 1) == Self.pixels(Self.red, Self.green))
        #expect(animation.canvasPixels(ofFrame: 2) == Self.pixels(Self.blue, Self.red))
        // The PNG specification's integers: weights 128 * 255 and (255 - 128) * 255; the red
        // channel (255 * 127 * 255) / (128 * 255 + 127 * 255) = 127, blue (255 * 128 * 255) / ... = 128.
        #expect(animation.canvasPixels(ofFrame: 3) == Self.pixels(Self.clear, [127, 0, 128, 255]))
        #expect(animation.canvasPixels(ofFrame: 4) == Self.pixels([0, 255, 0, 64], [127, 0, 128, 255]))
        #expect(animation.frames.map(\.durationMilliseconds) == [100, 100, 100, 100, 100])
    }

    /// `APNG_DISPOSE_OP_PREVIOUS` on the first frame is treated as background: the next frame
    /// draws over a cleared canvas, not the first frame's pixels.
    @Test func disposePreviousOnTheFirstFrameClears() throws {
        let file = try APNGFixture.animation(
            width: 2, height: 1, frames: [.solid(2, 1, Self.red, dispose: 2), .solid(1, 1, Self.green, blend: 1)])
        let (animation, _) = try APNGLoader.animation(from: file.bytes)
        #expect(animation.canvasPixels(ofFrame: 1) == Self.pixels(Self.green, Self.clear))
    }

    /// A default image outside the animation (no `fcTL` before `IDAT`) is not a frame.
    @Test func aDefaultImageOutsideTheAnimationIsNotAFrame() throws {
        let file = try APNGFixture.animation(
            width: 1, height: 1, frames: [.solid(1, 1, Self.green), .solid(1, 1, Self.blue)], defaultImage: Self.red)
        let (animation, warnings) = try APNGLoader.animation(from: file.bytes)
        #expect(warnings.isEmpty && animation.frames.count == 2)
        #expect(animation.canvasPixels(ofFrame: 0) == Self.green && animation.canvasPixels(ofFrame: 1) == Self.blue)
    }

    /// Delays in milliseconds: numerator / denominator seconds, a denominator of 0 is 100,
    /// rounded to the nearest millisecond, halves up.
    @Test func delaysAreRoundedToTheNearestMillisecond() throws {
        var frames = (0..<5).map { _ in APNGFixture.Frame.solid(1, 1, Self.red) }
        for (index, delay) in [(1, 3), (2, 3), (1, 0), (0, 10), (1, 2000)].enumerated() { frames[index].delay = delay }
        let (animation, _) = try APNGLoader.animation(from: try APNGFixture.animation(width: 1, height: 1, frames: frames).bytes)
        #expect(animation.frames.map(\.durationMilliseconds) == [333, 667, 10, 0, 1])
    }

    /// A palette image's frames decode with the file's `PLTE` and `tRNS`, and interlaced frames
    /// as interlaced: the frame's still PNG carries the header's other fields.
    @Test func palettedFramesUseTheFilesPaletteAndTransparency() throws {
        var file = try APNGFixture.animation(width: 2, height: 1, frames: [.solid(2, 1, Self.red), .solid(2, 1, Self.red)])
        file.chunks[0].data = APNGFixture.be(2) + APNGFixture.be(1) + [8, 3, 0, 0, 0]
        file.chunks.insert(APNGFixture.Chunk(type: "PLTE", data: [255, 0, 0, 0, 0, 255]), at: 1)
        file.chunks.insert(APNGFixture.Chunk(type: "tRNS", data: [255, 100]), at: 2)
        let idat = file.index(of: "IDAT"), fdat = file.index(of: "fdAT")
        file.chunks[idat].data = try Zlib.compress([0, 0, 1], level: 9)
        file.chunks[fdat].data = APNGFixture.be(2) + (try Zlib.compress([0, 1, 0], level: 9))
        let (animation, warnings) = try APNGLoader.animation(from: file.bytes)
        #expect(warnings.isEmpty)
        #expect(animation.canvasPixels(ofFrame: 0) == Self.red + [0, 0, 255, 100])
        #expect(animation.canvasPixels(ofFrame: 1) == [0, 0, 255, 100] + Self.red)
    }
}
