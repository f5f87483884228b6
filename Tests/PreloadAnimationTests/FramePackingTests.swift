import Preload
@testable import PreloadAnimation
import Testing

/// Frames that show the same pixels are stored once; frames that differ in one byte are stored
/// apart (the key's hash folds every byte; equality compares every pixel).
@Suite struct FramePackingTests {
    /// A 100x100 canvas, opaque gray, with `pixel` changed to red.
    static func canvas(changing pixel: Int? = nil) -> [UInt8] {
        var canvas = [UInt8](repeating: 128, count: 100 * 100 * 4)
        if let pixel { canvas[pixel * 4] = 255 }
        return canvas
    }

    @Test func equalFramesShareARegionAndFramesDifferingInOneByteDoNot() throws {
        let changed = 5060
        let trims = [Self.canvas(), Self.canvas(), Self.canvas(changing: changed)].map { FramePacking.trim($0, width: 100, height: 100) }
        #expect(trims[0] == trims[1] && trims[0] != trims[2] && trims[0].hashValue != trims[2].hashValue)
        let (pages, frames) = try FramePacking.pack(trims, durations: [1, 2, 3], width: 100, height: 100, memory: .shared)
        #expect(frames[0].rect == frames[1].rect && frames[0].rect != frames[2].rect)
        let animation = SpriteAnimation(width: 100, height: 100, pages: pages, frames: frames)
        #expect(animation.canvasPixels(ofFrame: 2) == Self.canvas(changing: changed))
        #expect(animation.canvasPixels(ofFrame: 1) == Self.canvas())
    }
}
