import Preload
import PreloadAnimation
import PreloadAtlas
import Testing

/// `frameIndex(at:tag:)`: durations, directions, repeat counts and loop counts.
@Suite struct SpriteAnimationTimingTests {
    /// Five frames of 100, 200, 100, 100, 100 ms.
    func animation(tags: [AnimationTag], loopCount: Int = 0) -> SpriteAnimation {
        let page = Texture(width: 1, height: 1, pixelFormat: .rgba8, alphaMode: .straight, pixels: [0, 0, 0, 0])
        let rect = PixelRect(x: 0, y: 0, width: 1, height: 1)
        let frames = [100, 200, 100, 100, 100].map { SpriteAnimation.Frame(page: 0, rect: rect, canvasRect: rect, durationMilliseconds: $0) }
        return SpriteAnimation(width: 1, height: 1, pages: [page], frames: frames, tags: tags, loopCount: loopCount)
    }

    func indexes(_ animation: SpriteAnimation, tag: String?, every step: Int = 100, count: Int) -> [Int?] {
        (0..<count).map { animation.frameIndex(at: .milliseconds(step * $0), tag: tag) }
    }

    @Test func theWholeAnimationLoopsForeverOrItsLoopCount() {
        #expect(indexes(animation(tags: []), tag: nil, count: 8) == [0, 1, 1, 2, 3, 4, 0, 1])
        #expect(indexes(animation(tags: [], loopCount: 1), tag: nil, count: 8) == [0, 1, 1, 2, 3, 4, 4, 4])
        #expect(animation(tags: []).frameIndex(at: .milliseconds(-50)) == 0)
        #expect(animation(tags: []).frameIndex(at: .milliseconds(150)) == 1)
        // Past what 64-bit milliseconds hold: the end of a play, not a wrapped time.
        #expect(animation(tags: [], loopCount: 1).frameIndex(at: .seconds(Int64.max)) == 4)
        #expect(animation(tags: [], loopCount: 1).frameIndex(at: .seconds(Int64.min)) == 0)
    }

    @Test func directions() {
        let tags = [
            AnimationTag(name: "f", from: 2, to: 4), AnimationTag(name: "r", from: 2, to: 4, direction: .reverse),
            AnimationTag(name: "p", from: 2, to: 4, direction: .pingPong),
            AnimationTag(name: "pr", from: 2, to: 4, direction: .pingPongReverse),
        ]
        let sprite = animation(tags: tags)
        #expect(indexes(sprite, tag: "f", count: 7) == [2, 3, 4, 2, 3, 4, 2])
        #expect(indexes(sprite, tag: "r", count: 7) == [4, 3, 2, 4, 3, 2, 4])
        #expect(indexes(sprite, tag: "p", count: 9) == [2, 3, 4, 3, 2, 3, 4, 3, 2])
        #expect(indexes(sprite, tag: "pr", count: 9) == [4, 3, 2, 3, 4, 3, 2, 3, 4])
    }

    @Test func repeatCountsStopOnTheLastFrameShown() {
        let tags = [
            AnimationTag(name: "twice", from: 2, to: 4, repeatCount: 2),
            AnimationTag(name: "there", from: 2, to: 4, direction: .pingPong, repeatCount: 1),
            AnimationTag(name: "back", from: 2, to: 4, direction: .pingPong, repeatCount: 2),
            AnimationTag(name: "single", from: 1, to: 1, direction: .pingPong, repeatCount: 3),
        ]
        let sprite = animation(tags: tags)
        #expect(indexes(sprite, tag: "twice", count: 9) == [2, 3, 4, 2, 3, 4, 4, 4, 4])
        #expect(indexes(sprite, tag: "there", count: 6) == [2, 3, 4, 4, 4, 4])
        #expect(indexes(sprite, tag: "back", count: 8) == [2, 3, 4, 3, 2, 2, 2, 2])
        #expect(indexes(sprite, tag: "single", count: 4) == [1, 1, 1, 1])
    }

    @Test func unknownTagsAndEmptyAnimations() {
        #expect(animation(tags: []).frameIndex(at: .zero, tag: "walk") == nil)
        #expect(animation(tags: [AnimationTag(name: "bad", from: 3, to: 9)]).frameIndex(at: .zero, tag: "bad") == nil)
        #expect(SpriteAnimation(width: 1, height: 1, pages: [], frames: []).frameIndex(at: .zero) == nil)
    }
}
