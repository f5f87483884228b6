import Preload
import PreloadGPU
import Testing

@Suite struct MipChainTests {
    @Test func sRGBLevelsAverageLightNotCodes() {
        // Black and white columns: half the light is sRGB 188, not 128 (what averaging codes gives).
        let image = RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255])
        let levels = MipChain.levels(of: image, colorSpace: .sRGB, alphaMode: .straight)
        #expect(levels.count == 2)
        #expect(levels[1].pixels == [188, 188, 188, 255])
        let linear = MipChain.levels(of: image, colorSpace: .linear, alphaMode: .straight)
        #expect(linear[1].pixels == [128, 128, 128, 255])
    }

    @Test func transparentColourDoesNotBleed() {
        // Opaque red beside fully transparent green: the average is red at half alpha.
        let image = RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 255, 0, 0])
        let straight = MipChain.levels(of: image, colorSpace: .sRGB, alphaMode: .straight)
        #expect(straight[1].pixels == [255, 0, 0, 128])
        // Premultiplied in, premultiplied out: red 255 x 128 / 255.
        let premultiplied = MipChain.levels(
            of: RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 0, 0]), colorSpace: .sRGB, alphaMode: .premultiplied)
        #expect(premultiplied[1].pixels == [128, 0, 0, 128])
    }

    @Test func whollyTransparentPixelsKeepTheirColour() {
        // Red under zero alpha (what many exporters leave there): every level keeps red, so a GPU
        // filtering from a visible neighbour into it blends with red at every level, not black.
        let image = RGBAImage(width: 4, height: 4, pixels: [UInt8](repeating: 0, count: 64).enumerated().map { $0.offset % 4 == 0 ? 255 : 0 })
        let levels = MipChain.levels(of: image, colorSpace: .sRGB, alphaMode: .straight)
        #expect(levels.map(\.pixels.count) == [64, 16, 4])
        #expect(levels.allSatisfy { $0.pixels == [UInt8](repeating: 0, count: $0.pixels.count).enumerated().map { $0.offset % 4 == 0 ? 255 : 0 } })
        // Premultiplied, an invisible pixel is zeros.
        let premultiplied = MipChain.levels(
            of: RGBAImage(width: 2, height: 1, pixels: [0, 0, 0, 0, 0, 0, 0, 0]), colorSpace: .sRGB, alphaMode: .premultiplied)
        #expect(premultiplied[1].pixels == [0, 0, 0, 0])
    }

    @Test func oddSidesCoverEveryPixel() {
        // 3x1: one pixel covers all three, each a third; the right pixel is not dropped.
        let image = RGBAImage(width: 3, height: 1, pixels: [0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255].map { UInt8($0) })
        let levels = MipChain.levels(of: image, colorSpace: .linear, alphaMode: .straight)
        #expect(levels.map(\.width) == [3, 1])
        #expect(levels[1].pixels == [85, 85, 85, 255])
        let tall = RGBAImage(width: 5, height: 12, pixels: [UInt8](repeating: 90, count: 5 * 12 * 4))
        let chain = MipChain.levels(of: tall, colorSpace: .sRGB, alphaMode: .straight)
        #expect(chain.map { [$0.width, $0.height] } == [[5, 12], [2, 6], [1, 3], [1, 1]])
        #expect(chain.allSatisfy { $0.pixels.allSatisfy { $0 == 90 } }, "a flat image stays flat at every level")
        #expect(MipChain.levels(of: tall, colorSpace: .sRGB, alphaMode: .straight, count: 2).count == 2)
    }
}
