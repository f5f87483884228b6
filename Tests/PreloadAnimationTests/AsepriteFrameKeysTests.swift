import Preload
import Testing

@testable import PreloadAnimation

/// Frames that show the same cels (Aseprite's linked cels) are known equal before compositing,
/// and composited once; they still load as the same pixels as composited apart.
@Suite struct AsepriteFrameKeysTests {
    typealias F = AsepriteFixture

    /// Frame 0 a dot; 1 linked to it; 2 the same dot drawn again elsewhere; 3 linked to 1 (so to
    /// 0); 4 empty; 5 at a lower opacity; 6 linked to frame 4, which has no cel there.
    static func file() -> AsepriteFixture {
        var file = F(width: 8, height: 8)
        let dot = [1, 2, 3, 255, 4, 5, 6, 255] as [UInt8]
        file.frames = [
            F.Frame(duration: 10, chunks: [F.layer("a"), F.rawCel(layer: 0, x: 2, y: 3, width: 2, height: 1, pixels: dot)]),
            F.Frame(duration: 20, chunks: [F.linkedCel(layer: 0, frame: 0)]),
            F.Frame(duration: 30, chunks: [F.rawCel(layer: 0, x: 4, y: 3, width: 2, height: 1, pixels: dot)]),
            F.Frame(duration: 40, chunks: [F.linkedCel(layer: 0, frame: 1)]),
            F.Frame(duration: 50, chunks: []),
            F.Frame(duration: 60, chunks: [F.rawCel(layer: 0, x: 2, y: 3, opacity: 100, width: 2, height: 1, pixels: dot)]),
            F.Frame(duration: 70, chunks: [F.linkedCel(layer: 0, frame: 4)]),
        ]
        return file
    }

    @Test func linkedFramesAreOneImageAndOthersAreNot() throws {
        let (document, _) = try AsepriteReader.read(Self.file().bytes, byteBudget: 1 << 20)
        #expect(AsepriteFrameKeys.firstEqualFrames(document) == [0, 0, 2, 0, 4, 5, 6])
    }

    @Test func anIndexedSpriteWhosePaletteChangesIsNotOneImage() throws {
        var file = F(width: 2, height: 1)
        file.depth = 8
        file.transparentIndex = 0
        file.frames = [
            F.Frame(
                duration: 10,
                chunks: [F.palette([[0, 0, 0, 0], [255, 0, 0, 255]]), F.layer("a"), F.rawCel(layer: 0, width: 1, height: 1, pixels: [1])]),
            F.Frame(duration: 10, chunks: [F.linkedCel(layer: 0, frame: 0)]),
            F.Frame(duration: 10, chunks: [F.palette([[0, 0, 0, 0], [0, 0, 255, 255]]), F.linkedCel(layer: 0, frame: 0)]),
        ]
        let (document, _) = try AsepriteReader.read(file.bytes, byteBudget: 1 << 20)
        #expect(AsepriteFrameKeys.firstEqualFrames(document) == [0, 0, 2])
        let animation = try AsepriteLoader.animation(from: file.bytes).animation
        #expect(animation.canvasPixels(ofFrame: 1) == [255, 0, 0, 255, 0, 0, 0, 0])
        #expect(animation.canvasPixels(ofFrame: 2) == [0, 0, 255, 255, 0, 0, 0, 0])
    }

    @Test func linkedFramesLoadAsTheSamePixelsAndRegion() throws {
        var file = Self.file()
        file.frames.removeLast()  // the link to nowhere fails the file by name
        let animation = try AsepriteLoader.animation(from: file.bytes).animation
        let rects = animation.frames.map(\.rect)
        #expect(rects[1] == rects[0] && rects[3] == rects[0] && rects[2] != rects[0] && rects[5] != rects[0])
        #expect(animation.canvasPixels(ofFrame: 3) == animation.canvasPixels(ofFrame: 0))
        #expect(animation.frames.map(\.durationMilliseconds) == [10, 20, 30, 40, 50, 60])
        #expect(throws: AsepriteError.self) { try AsepriteLoader.animation(from: Self.file().bytes) }
    }
}
