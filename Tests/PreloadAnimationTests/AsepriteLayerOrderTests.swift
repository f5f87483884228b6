import Preload
import PreloadAnimation
import Testing

/// The background layer and the order of cels, as Aseprite's render draws them.
@Suite struct AsepriteLayerOrderTests {
    typealias F = AsepriteFixture

    func canvas(_ file: AsepriteFixture, frame: Int = 0) throws -> [UInt8] {
        try AsepriteLoader.animation(from: file.bytes).animation.canvasPixels(ofFrame: frame)
    }

    @Test func theBackgroundLayersOpacityAndBlendModeAreNotApplied() throws {
        var file = F(width: 1, height: 1)
        file.frames = [
            F.Frame(
                duration: 1,
                chunks: [
                    F.layer("Background", flags: 1 | 8, blendMode: 1, opacity: 100),
                    F.rawCel(layer: 0, width: 1, height: 1, pixels: [10, 20, 30, 255]),
                ])
        ]
        // Aseprite reads a background layer's opacity and blend mode as 255 and normal.
        #expect(try canvas(file) == [10, 20, 30, 255])
    }

    @Test func aNegativeZIndexDoesNotTakeACelUnderTheBackground() throws {
        var file = F(width: 2, height: 1)
        file.frames = [
            F.Frame(
                duration: 1,
                chunks: [
                    F.layer("Background", flags: 1 | 8), F.layer("low"), F.layer("high"),
                    F.rawCel(layer: 0, width: 2, height: 1, pixels: [1, 1, 1, 255, 1, 1, 1, 255]),
                    F.rawCel(layer: 1, zIndex: -1, width: 2, height: 1, pixels: [2, 2, 2, 255, 2, 2, 2, 255]),
                    F.rawCel(layer: 2, zIndex: -2, width: 1, height: 1, pixels: [3, 3, 3, 255]),
                ])
        ]
        // Layer 1 at z -1 and layer 2 at z -2 both sort under the background (2 - 2 = 1 - 1 = 0,
        // and then by z-index: layer 2, layer 1, the background), but Aseprite draws the
        // background first, on a pass of its own, and then the others in that order.
        #expect(try canvas(file) == [2, 2, 2, 255, 2, 2, 2, 255])
    }

    @Test func anRGBFrameOfAnIndexedSpriteStartsAsTheTransparentColourUnderAVisibleBackground() throws {
        var file = F(width: 2, height: 1, depth: 8)
        file.frames = [
            F.Frame(
                duration: 1,
                chunks: [
                    F.palette([[5, 6, 7, 255], [1, 2, 3, 255]]), F.layer("Background", flags: 1 | 8), F.layer("top"),
                    F.rawCel(layer: 0, width: 1, height: 1, pixels: [1]), F.rawCel(layer: 1, x: 1, opacity: 128, width: 1, height: 1, pixels: [0]),
                ]),
            F.Frame(duration: 1, chunks: [F.palette([[5, 6, 7, 255], [1, 2, 3, 255], [9, 9, 9, 255]])]),
        ]
        // Two palettes: the export's sheet is RGB, and Aseprite fills the frame with the
        // transparent index's colour (entry 0) before drawing: where the background's cel does
        // not reach, that colour shows; the top layer's index 0 is transparent.
        #expect(try canvas(file) == [1, 2, 3, 255, 5, 6, 7, 255])
        // Frames share one canvas, and only what a frame drew is trimmed: the fill is the whole
        // frame's, in a frame without cels too.
        #expect(try canvas(file, frame: 1) == [5, 6, 7, 255, 5, 6, 7, 255])
        file.frames[0].chunks[1] = F.layer("Background", flags: 8)
        #expect(try canvas(file) == [0, 0, 0, 0, 0, 0, 0, 0])  // hidden: no fill
    }

    @Test func aLayerOfAnUnknownTypeDrawsNothing() throws {
        var file = F(width: 1, height: 1)
        file.frames = [
            F.Frame(
                duration: 1,
                chunks: [
                    F.layer("image"), F.layer("future", type: 3), F.rawCel(layer: 0, width: 1, height: 1, pixels: [1, 2, 3, 255]),
                    F.rawCel(layer: 1, width: 1, height: 1, pixels: [9, 9, 9, 255]),
                ])
        ]
        // Aseprite drops a layer of a type it does not know, and the cels on it.
        #expect(try canvas(file) == [1, 2, 3, 255])
    }
}
