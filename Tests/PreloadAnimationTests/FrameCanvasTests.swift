import Testing

@testable import PreloadAnimation

/// The compositor GIF, APNG and animated WebP frames share: blending, disposal, clipping.
@Suite struct FrameCanvasTests {
    /// A `width` x `height` frame of one colour.
    func solid(_ rgba: [UInt8], _ width: Int, _ height: Int) -> [UInt8] {
        Array([[UInt8]](repeating: rgba, count: width * height).joined())
    }

    func pixel(_ canvas: [UInt8], _ x: Int, _ y: Int, width: Int) -> [UInt8] {
        Array(canvas[(y * width + x) * 4..<(y * width + x) * 4 + 4])
    }

    @Test func eachDisposalLeavesWhatTheNextFrameDrawsOver() {
        var canvas = FrameCanvas(width: 2, height: 1)
        let red = solid([255, 0, 0, 255], 2, 1), blue = solid([0, 0, 255, 255], 1, 1)
        #expect(canvas.render(red, width: 2, height: 1, x: 0, y: 0, blend: .over, disposal: .keep) == red)
        // Previous: blue shows at (1, 0), then red comes back.
        let shown = canvas.render(blue, width: 1, height: 1, x: 1, y: 0, blend: .over, disposal: .restorePrevious)
        #expect(shown == [255, 0, 0, 255, 0, 0, 255, 255])
        #expect(canvas.pixels == red)
        // Clear: the frame's region only becomes transparent black.
        _ = canvas.render(blue, width: 1, height: 1, x: 0, y: 0, blend: .over, disposal: .clear)
        #expect(canvas.pixels == [0, 0, 0, 0, 255, 0, 0, 255])
    }

    /// The caller is handed the canvas as the frame shows it, before the disposal writes it:
    /// what it reads there (without keeping the array, as GIF's trim does) is the frame drawn,
    /// not the region cleared or given back.
    @Test func theCallerReadsTheShownFrameBeforeItsDisposal() {
        let red = solid([255, 0, 0, 255], 2, 1), blue = [UInt8]([0, 0, 255, 255])
        let cases: [(FrameCanvas.Disposal, after: [UInt8])] = [
            (.clear, [255, 0, 0, 255, 0, 0, 0, 0]), (.restorePrevious, red), (.keep, [255, 0, 0, 255, 0, 0, 255, 255]),
        ]
        for (disposal, after) in cases {
            var canvas = FrameCanvas(width: 2, height: 1)
            canvas.render(red, width: 2, height: 1, x: 0, y: 0, blend: .replace, disposal: .keep) { _ in }
            var calls = 0
            let seen = canvas.render(blue, width: 1, height: 1, x: 1, y: 0, blend: .over, disposal: disposal) { shown in
                calls += 1
                return shown.withUnsafeBufferPointer { Array($0[4..<8]) }
            }
            #expect(calls == 1 && seen == blue, "\(disposal): the frame as it shows")
            #expect(canvas.pixels == after, "\(disposal): then disposed")
        }
    }

    @Test func overFollowsThePNGSpecificationsIntegers() {
        var canvas = FrameCanvas(width: 1, height: 1)
        _ = canvas.render([0, 0, 255, 128], width: 1, height: 1, x: 0, y: 0, blend: .over, disposal: .keep)
        let shown = canvas.render([255, 0, 0, 64], width: 1, height: 1, x: 0, y: 0, blend: .over, disposal: .keep)
        // u = 64 * 255 = 16320, v = 191 * 128 = 24448, total 40768.
        #expect(shown == [UInt8(255 * 16320 / 40768), 0, UInt8(255 * 24448 / 40768), UInt8(40768 / 255)])
        // A transparent source pixel leaves the canvas; replace copies it, alpha and all.
        #expect(canvas.render([9, 9, 9, 0], width: 1, height: 1, x: 0, y: 0, blend: .over, disposal: .keep) == shown)
        #expect(canvas.render([9, 9, 9, 0], width: 1, height: 1, x: 0, y: 0, blend: .replace, disposal: .keep) == [9, 9, 9, 0])
    }

    @Test func overWebPFollowsLibwebpsIntegers() {
        var canvas = FrameCanvas(width: 1, height: 1)
        _ = canvas.render([0, 0, 255, 128], width: 1, height: 1, x: 0, y: 0, blend: .overWebP, disposal: .keep)
        let shown = canvas.render([255, 0, 0, 64], width: 1, height: 1, x: 0, y: 0, blend: .overWebP, disposal: .keep)
        // destination factor (128 * 192) >> 8 = 96, alpha 160, scale 2^24 / 160 = 104857.
        #expect(shown == [UInt8((255 * 64 * 104857) >> 24), 0, UInt8((255 * 96 * 104857) >> 24), 160])
        // Over a transparent pixel too: 255 at alpha 3 scales by 2^24 / 3 and truncates to 254;
        // but not in a key frame (the first), which libwebp draws unblended.
        var clear = FrameCanvas(width: 2, height: 1)
        #expect(
            clear.render([255, 255, 255, 3], width: 1, height: 1, x: 0, y: 0, blend: .overWebP, disposal: .keep) == [255, 255, 255, 3, 0, 0, 0, 0])
        #expect(
            clear.render([255, 255, 255, 3], width: 1, height: 1, x: 1, y: 0, blend: .overWebP, disposal: .keep) == [
                255, 255, 255, 3, 254, 254, 254, 3,
            ])
        var png = FrameCanvas(width: 1, height: 1)
        #expect(png.render([255, 255, 255, 3], width: 1, height: 1, x: 0, y: 0, blend: .over, disposal: .keep) == [255, 255, 255, 3])
    }

    /// libwebp's animation decoder blends only where the canvas may hold something: inside the
    /// last frame's rectangle when that frame was cleared, and in a key frame (drawn after a
    /// cleared key frame or whole-canvas frame), the frame's pixels replace the canvas's.
    @Test func overWebPDoesNotBlendWhereLibwebpDoesNot() {
        var canvas = FrameCanvas(width: 2, height: 1)
        _ = canvas.render([10, 20, 30, 255, 10, 20, 30, 255], width: 2, height: 1, x: 0, y: 0, blend: .overWebP, disposal: .keep)
        _ = canvas.render([1, 1, 1, 255], width: 1, height: 1, x: 0, y: 0, blend: .overWebP, disposal: .clear)
        // Left: inside the cleared frame's rectangle, copied; right: blended over (10, 20, 30).
        let shown = canvas.render([255, 255, 255, 3, 255, 255, 255, 3], width: 2, height: 1, x: 0, y: 0, blend: .overWebP, disposal: .clear)
        #expect(Array(shown[0..<4]) == [255, 255, 255, 3])
        #expect(Array(shown[4..<8]) != [255, 255, 255, 3] && shown[7] == 255)
        // The last frame covered the canvas and was cleared: a key frame, copied wherever it lies.
        #expect(
            canvas.render([255, 255, 255, 3], width: 1, height: 1, x: 1, y: 0, blend: .overWebP, disposal: .clear) == [0, 0, 0, 0, 255, 255, 255, 3])
        // After a cleared key frame: another key frame, though it was not the whole canvas.
        #expect(
            canvas.render([255, 255, 255, 3], width: 1, height: 1, x: 0, y: 0, blend: .overWebP, disposal: .keep) == [255, 255, 255, 3, 0, 0, 0, 0])
        // Not after a kept frame: blended, even over a transparent pixel.
        #expect(
            canvas.render([255, 255, 255, 3], width: 1, height: 1, x: 1, y: 0, blend: .overWebP, disposal: .keep) == [
                255, 255, 255, 3, 254, 254, 254, 3,
            ])
    }

    @Test func aFrameOverhangingTheCanvasIsClipped() {
        var canvas = FrameCanvas(width: 2, height: 2)
        let shown = canvas.render(solid([1, 2, 3, 255], 3, 3), width: 3, height: 3, x: 1, y: -1, blend: .over, disposal: .clear)
        #expect(pixel(shown, 1, 0, width: 2) == [1, 2, 3, 255])
        #expect(pixel(shown, 1, 1, width: 2) == [1, 2, 3, 255])
        #expect(pixel(shown, 0, 0, width: 2) == [0, 0, 0, 0])
        #expect(canvas.pixels == [UInt8](repeating: 0, count: 16))
        // Wholly outside: nothing drawn, nothing disposed.
        #expect(canvas.render(solid([1, 2, 3, 255], 1, 1), width: 1, height: 1, x: 5, y: 5, blend: .over, disposal: .clear) == canvas.pixels)
    }
}

extension FrameCanvas {
    /// The canvas as the frame shows it, kept: ``render(_:width:height:x:y:blend:disposal:shown:)``
    /// with a caller that keeps the array it is handed.
    mutating func render(_ frame: [UInt8], width: Int, height: Int, x: Int, y: Int, blend: Blend, disposal: Disposal) -> [UInt8] {
        render(frame, width: width, height: height, x: x, y: y, blend: blend, disposal: disposal) { $0 }
    }
}
