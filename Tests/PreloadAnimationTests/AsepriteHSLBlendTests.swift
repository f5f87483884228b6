import Preload
import PreloadAnimation
import Testing

/// Hue, saturation, color and luminosity, checked against the PDF/W3C formulas worked outside
/// this package (`Tests/PreloadAnimationTests/Fixtures/hsl_reference.py`, IEEE doubles as
/// Aseprite's C++ computes them), on pairs whose channels land at least 0.1 from an integer,
/// so that Aseprite's truncation to 8 bits is not a coin toss, and on one pair that shows the
/// truncation itself.
@Suite struct AsepriteHSLBlendTests {
    typealias F = AsepriteFixture

    /// `source` in `mode` over `backdrop`, both opaque, in a 1x1 sprite of `depth` (for
    /// grayscale, the first channel of each; for indexed, entries 1 and 2 of a palette in
    /// frame 1, changed in frame 2 so that the sprite has two palettes).
    func blended(_ mode: Int, _ backdrop: [UInt8], _ source: [UInt8], depth: Int = 32) throws -> [UInt8] {
        var file = F(width: 1, height: 1, depth: depth)
        let pixels: ([UInt8], [UInt8])
        var chunks = [F.layer("under"), F.layer("over", blendMode: mode)]
        switch depth {
        case 16: pixels = ([backdrop[0], 255], [source[0], 255])
        case 8:
            pixels = ([1], [2])
            chunks.insert(F.palette([[0, 0, 0, 0], backdrop + [255], source + [255]]), at: 0)
        default: pixels = (backdrop + [255], source + [255])
        }
        chunks += [F.rawCel(layer: 0, width: 1, height: 1, pixels: pixels.0), F.rawCel(layer: 1, width: 1, height: 1, pixels: pixels.1)]
        file.frames = [F.Frame(duration: 1, chunks: chunks)]
        if depth == 8 {
            file.frames.append(F.Frame(duration: 1, chunks: [F.palette([[9, 9, 9, 255]], first: 3)]))
        }
        return Array(try AsepriteLoader.animation(from: file.bytes).animation.canvasPixels(ofFrame: 0).prefix(3))
    }

    @Test func hueTakesTheSourcesHueAtTheBackdropsSaturationAndLuminosity() throws {
        // Blue-ish (40,90,200) at the saturation and luminosity of (200,60,40): (52.7, 102.7, 212.7).
        #expect(try blended(12, [200, 60, 40], [40, 90, 200]) == [52, 102, 212])
        // (220,40,120) at (90,160,60)'s saturation 100/255 and luminosity: (193.11, 93.11, 137.56).
        #expect(try blended(12, [90, 160, 60], [220, 40, 120]) == [193, 93, 137])
    }

    @Test func saturationTakesTheSourcesSaturation() throws {
        // (90,160,60) stretched to (220,40,120)'s saturation 180/255, at its own luminosity: (59.6, 185.6, 5.6).
        #expect(try blended(13, [90, 160, 60], [220, 40, 120]) == [59, 185, 5])
    }

    @Test func colorTakesTheSourcesHueAndSaturation() throws {
        // (220,40,120) moved to (90,160,60)'s luminosity 123.8: (245.2, 65.2, 145.2).
        #expect(try blended(14, [90, 160, 60], [220, 40, 120]) == [245, 65, 145])
        #expect(try blended(14, [200, 60, 40], [40, 90, 200]) == [52, 102, 212])
    }

    @Test func luminosityTakesTheSourcesLuminosityAndTruncates() throws {
        // (90,160,60) moved to (220,40,120)'s luminosity: (64.8, 134.8, 34.8).
        #expect(try blended(15, [90, 160, 60], [220, 40, 120]) == [64, 134, 34])
        // Gray 120 moved to (200,50,50)'s luminosity, 95 exactly on paper; in doubles 94.99999...,
        // which Aseprite's int() truncates to 94 (rounding would give 95).
        #expect(try blended(15, [120, 120, 120], [200, 50, 50]) == [94, 94, 94])
    }

    @Test func grayscaleSpritesBlendThroughRGBAsTheSheetExportDoes() throws {
        // A gray has no saturation: hue and saturation keep the backdrop's gray, luminosity
        // takes the source's (Aseprite's gray-to-gray blender would draw the source for all four).
        #expect(try blended(12, [100], [200], depth: 16) == [100, 100, 100])
        #expect(try blended(13, [100], [200], depth: 16) == [100, 100, 100])
        #expect(try blended(15, [100], [200], depth: 16) == [200, 200, 200])
    }

    @Test func indexedSpritesWithTwoPalettesBlendTheirColours() throws {
        // Two palettes: the export's sheet is RGB, and the entries blend as colours.
        #expect(try blended(12, [90, 160, 60], [220, 40, 120], depth: 8) == [193, 93, 137])
        #expect(try blended(15, [120, 120, 120], [200, 50, 50], depth: 8) == [94, 94, 94])
    }

    @Test func halfOpaqueHueMergesAsTheSeparableModesDo() throws {
        var file = F(width: 1, height: 1)
        file.frames = [
            F.Frame(
                duration: 1,
                chunks: [
                    F.layer("under"), F.layer("over", blendMode: 12, opacity: 128),
                    F.rawCel(layer: 0, width: 1, height: 1, pixels: [90, 160, 60, 255]),
                    F.rawCel(layer: 1, width: 1, height: 1, pixels: [220, 40, 120, 255]),
                ])
        ]
        // The hue colour (193, 93, 137) at 128 over the opaque backdrop: 90 + 103*128/255 = 141,
        // 160 - 67*128/255 = 127 (C's division truncates towards zero), 60 + 77*128/255 = 98.
        #expect(Array(try AsepriteLoader.animation(from: file.bytes).animation.canvasPixels(ofFrame: 0)) == [141, 127, 98, 255])
    }
}
