import Preload
import PreloadGLReadback
import PreloadGPU
import Testing

/// Blocks built by hand from the specifications, uploaded to a real driver (Mesa's llvmpipe where
/// there is no GPU) and read back: what the GPU samples is what the specification says.
@Suite(.enabled(if: ReadbackCase.available, "needs libEGL and a Mesa driver (libegl1, libegl-mesa0, libgl1-mesa-dri)"))
struct BlockReadbackTests {
    /// BC1 with color0 > color1: yellow, blue, and the two colours a third and two thirds between.
    /// S3TC leaves the interpolants' rounding to the hardware (llvmpipe gives 84 for 255 / 3), so
    /// those texels may differ from the exact thirds by 1; the endpoints are exact.
    @Test(arguments: ReadbackCase.all) func bc1FourColours(_ readback: ReadbackCase) throws {
        let indices = [0, 1, 2, 3, 3, 2, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1]
        let block = Blocks.bc1(color0: 0xFFE0, color1: 0x001F, indices: indices)
        #expect(block == [0xE0, 0xFF, 0x1F, 0x00, 0xE4, 0x1B, 0x55, 0x50])
        let palette: [[Double]] = [[255, 255, 0, 255], [0, 0, 255, 255], [170, 170, 85, 255], [85, 85, 170, 255]]
        let image = try readBack(readback, .bc1, .linear, width: 4, height: 4, block)
        expectTexels(image, indices.map { palette[$0] }, tolerance: indices.map { $0 >= 2 ? 1 : 0 })
    }

    /// BC1 with color0 <= color1: two colours, their mean, and transparent black (index 3).
    @Test(arguments: ReadbackCase.all) func bc1ThreeColoursAndTransparent(_ readback: ReadbackCase) throws {
        // color0: blue 16 of 31 (132); color1: red 16 of 31 (132), green 32 of 63 (130).
        let indices = [3, 0, 1, 2, 2, 3, 0, 1, 1, 2, 3, 0, 0, 1, 2, 3]
        let block = Blocks.bc1(color0: 0x0010, color1: 0x8400, indices: indices)
        let palette: [[Double]] = [[0, 0, 132, 255], [132, 130, 0, 255], [66, 65, 66, 255], [0, 0, 0, 0]]
        let image = try readBack(readback, .bc1, .linear, width: 4, height: 4, block)
        expectTexels(image, indices.map { palette[$0] }, tolerance: indices.map { $0 == 2 ? 1 : 0 })
    }

    /// Two BC4 blocks side by side, one of each mode: red comes back as (r, 0, 0, 255).
    @Test(arguments: ReadbackCase.all) func bc4BothModes(_ readback: ReadbackCase) throws {
        let eight = (0..<16).map { $0 % 8 }, six = (0..<16).map { (15 - $0) % 8 }
        let blocks = Blocks.bc4(red0: 210, red1: 0, indices: eight) + Blocks.bc4(red0: 50, red1: 250, indices: six)
        let eightPalette = Blocks.bc4Palette(red0: 210, red1: 0), sixPalette = Blocks.bc4Palette(red0: 50, red1: 250)
        #expect(eightPalette == [210, 0, 180, 150, 120, 90, 60, 30])
        #expect(sixPalette == [50, 250, 90, 130, 170, 210, 0, 255])
        var expected: [[Double]] = [], tolerance: [Double] = []
        for y in 0..<4 {
            for x in 0..<8 {
                let texel = y * 4 + x % 4
                let (index, red) = x < 4 ? (eight[texel], eightPalette[eight[texel]]) : (six[texel], sixPalette[six[texel]])
                expected.append([red, 0, 0, 255])
                tolerance.append(index >= 2 && (x < 4 || index < 6) ? 1 : 0)
            }
        }
        let image = try readBack(readback, .bc4, .linear, width: 8, height: 4, blocks)
        expectTexels(image, expected, tolerance: tolerance)
    }

    /// BC5: a BC4 block for red, then one for green: (r, g, 0, 255).
    @Test(arguments: ReadbackCase.all) func bc5RedThenGreen(_ readback: ReadbackCase) throws {
        let redIndices = (0..<16).map { $0 % 8 }, greenIndices = (0..<16).map { (15 - $0) % 8 }
        let block = Blocks.bc4(red0: 210, red1: 0, indices: redIndices) + Blocks.bc4(red0: 50, red1: 250, indices: greenIndices)
        let red = Blocks.bc4Palette(red0: 210, red1: 0), green = Blocks.bc4Palette(red0: 50, red1: 250)
        let expected = (0..<16).map { [red[redIndices[$0]], green[greenIndices[$0]], 0, 255] }
        let tolerance = (0..<16).map { redIndices[$0] >= 2 || (2..<6).contains(greenIndices[$0]) ? 1.0 : 0 }
        let image = try readBack(readback, .bc5, .linear, width: 4, height: 4, block)
        expectTexels(image, expected, tolerance: tolerance)
    }

    /// BC7 mode 6: one RGBA line, 16 steps. BPTC fixes the arithmetic, ((64 - w) e0 + w e1 + 32) >> 6,
    /// so every texel is exact, in both colour spaces (sRGB comes back as stored).
    @Test(arguments: ReadbackCase.all, [ColorSpace.linear, .sRGB]) func bc7Mode6(_ readback: ReadbackCase, colorSpace: ColorSpace) throws {
        // Endpoint 0: 7-bit (0, 127, 10, 127) with P-bit 0 -> (0, 254, 20, 254);
        // endpoint 1: (127, 0, 100, 127) with P-bit 1 -> (255, 1, 201, 255).
        let block = Blocks.bc7Mode6(endpoint0: [0, 127, 10, 127], endpoint1: [127, 0, 100, 127], pBits: (0, 1), indices: Array(0..<16))
        let endpoint0 = [0, 254, 20, 254], endpoint1 = [255, 1, 201, 255]
        let expected = Blocks.bc7Weights4.map { weight in
            (0..<4).map { Double(((64 - weight) * endpoint0[$0] + weight * endpoint1[$0] + 32) >> 6) }
        }
        let image = try readBack(readback, .bc7, colorSpace, width: 4, height: 4, block)
        expectTexels(image, expected, tolerance: Array(repeating: 0, count: 16))
    }

    /// ASTC void-extent blocks: one colour a block, exact. A 12x12 texture of 8x8 blocks is 2x2
    /// blocks, the right and bottom ones cut.
    @Test(arguments: ReadbackCase.all, [ColorSpace.linear, .sRGB]) func astcVoidExtent(
        _ readback: ReadbackCase, colorSpace: ColorSpace
    )
        throws
    {
        let colours: [[UInt8]] = [[0x33, 0x99, 0xCC, 0x80], [255, 0, 0, 255], [0, 255, 0, 0], [1, 2, 3, 4]]
        let small = try readBack(readback, .astc4x4, colorSpace, width: 4, height: 4, Blocks.astcVoidExtent(colours[0]))
        expectTexels(small, Array(repeating: colours[0].map(Double.init), count: 16), tolerance: Array(repeating: 0, count: 16))

        let large = try readBack(readback, .astc8x8, colorSpace, width: 12, height: 12, colours.flatMap(Blocks.astcVoidExtent))
        let expected = (0..<144).map { (texel: Int) -> [Double] in
            let block = texel / 12 / 8 * 2 + texel % 12 / 8
            return colours[block].map { Double($0) }
        }
        expectTexels(large, expected, tolerance: Array(repeating: 0, count: 144))
    }

    /// A hand-built ASTC 4x4 block with interpolated texels: RGBA direct endpoints, a 4x4 grid of
    /// 2-bit weights (see ``Blocks/astcRGBADirect4x4(endpoint0:endpoint1:weights:)``), decoded by
    /// the specification's arithmetic in both colour spaces.
    @Test(arguments: ReadbackCase.all, [ColorSpace.linear, .sRGB]) func astcInterpolatedBlock(
        _ readback: ReadbackCase, colorSpace: ColorSpace
    )
        throws
    {
        let endpoint0 = [0, 200, 40, 255], endpoint1 = [255, 10, 100, 128]
        let weights = (0..<16).map { ($0 + $0 / 4) % 4 }
        let block = Blocks.astcRGBADirect4x4(endpoint0: endpoint0, endpoint1: endpoint1, weights: weights)
        let expected = weights.map { (index: Int) -> [Double] in
            (0..<4).map { channel in
                Double(
                    Blocks.astcInterpolate(
                        endpoint0[channel], endpoint1[channel], weight: Blocks.astcWeights2[index], sRGB: colorSpace == .sRGB))
            }
        }
        // Linear texels between the endpoints may be 1 lower: llvmpipe keeps the top 8 bits of
        // the 16-bit result (as EXT_texture_compression_astc_decode_mode's unorm8 does) where
        // the specification rounds the UNORM16 value. Endpoints, and every sRGB texel, are exact.
        let tolerance = weights.map { colorSpace == .linear && (1...2).contains($0) ? 1.0 : 0 }
        let image = try readBack(readback, .astc4x4, colorSpace, width: 4, height: 4, block)
        expectTexels(image, expected, tolerance: tolerance)
    }

    /// An ASTC block of all zeros has a reserved block mode: the decoder gives the error colour,
    /// magenta, not a GL error (what "wrong data" looks like from a driver that has the format).
    @Test(arguments: ReadbackCase.all) func astcReservedBlockIsMagenta(_ readback: ReadbackCase) throws {
        let image = try readBack(readback, .astc4x4, .linear, width: 4, height: 4, [UInt8](repeating: 0, count: 16))
        expectTexels(image, Array(repeating: [255, 0, 255, 255], count: 16), tolerance: Array(repeating: 0, count: 16))
    }

    /// RGBA8 and SRGB8_ALPHA8 give back every byte as uploaded: all 256 values in each channel.
    @Test(arguments: ReadbackCase.all, [ColorSpace.linear, .sRGB]) func rgba8RoundTrip(_ readback: ReadbackCase, colorSpace: ColorSpace) throws {
        let pixels = (0..<256).flatMap { (value: Int) -> [UInt8] in
            [UInt8(value), UInt8(255 - value), UInt8(value ^ 0x55), UInt8(truncatingIfNeeded: value * 7)]
        }
        let image = try readBack(readback, .rgba8, colorSpace, width: 16, height: 16, pixels)
        #expect(image.pixels == pixels)
    }

    /// Three levels of BC1 (8x8, 4x4, 2x2: a whole block each) and of RGBA8 (16x8, 8x4, 4x2),
    /// each level read back at its own size.
    @Test(arguments: ReadbackCase.all) func mipLevels(_ readback: ReadbackCase) throws {
        // BC1, one colour a block (every index 0): red, green, blue, white; yellow; cyan.
        let colours: [UInt16] = [0xF800, 0x07E0, 0x001F, 0xFFFF, 0xFFE0, 0x07FF]
        let rgb: [[Double]] = [
            [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255], [255, 255, 0, 255], [0, 255, 255, 255],
        ]
        let blocks = colours.flatMap { Blocks.bc1(color0: $0, color1: 0, indices: Array(repeating: 0, count: 16)) }
        let context = try readback.context()
        let levels = try context.readBack(
            format: .bc1, colorSpace: .linear, width: 8, height: 8, mipLevelCount: 3, pixels: blocks, method: readback.method)
        #expect(levels.map(\.width) == [8, 4, 2] && levels.map(\.height) == [8, 4, 2])
        expectTexels(levels[0], (0..<64).map { rgb[($0 / 8 / 4) * 2 + $0 % 8 / 4] }, tolerance: Array(repeating: 0, count: 64))
        expectTexels(levels[1], Array(repeating: rgb[4], count: 16), tolerance: Array(repeating: 0, count: 16))
        expectTexels(levels[2], Array(repeating: rgb[5], count: 4), tolerance: Array(repeating: 0, count: 4))

        // RGBA8 through a Texture: each level's bytes distinct from the others'.
        let sizes = [(16, 8), (8, 4), (4, 2)]
        let pixels = sizes.enumerated().map { level, size in (0..<size.0 * size.1 * 4).map { UInt8(truncatingIfNeeded: $0 * 3 + level * 101) } }
        let texture = Texture(
            width: 16, height: 8, pixelFormat: .rgba8, alphaMode: .straight, colorSpace: .sRGB, mipLevelCount: 3, pixels: pixels.flatMap { $0 })
        let read = try context.readBack(texture, method: readback.method)
        #expect(read == zip(sizes, pixels).map { RGBAImage(width: $0.0, height: $0.1, pixels: $1) })
    }

    private func readBack(
        _ readback: ReadbackCase, _ format: PixelFormat, _ colorSpace: ColorSpace, width: Int, height: Int, _ pixels: [UInt8]
    ) throws -> RGBAImage {
        let levels = try readback.context().readBack(
            format: format, colorSpace: colorSpace, width: width, height: height, pixels: pixels, method: readback.method)
        #expect(levels.count == 1)
        return levels[0]
    }
}

/// Checks each texel of `image` (row after row) against `expected` (RGBA, the specification's
/// real values), channel by channel within its texel's `tolerance`, naming the first texels that
/// differ.
func expectTexels(_ image: RGBAImage, _ expected: [[Double]], tolerance: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(expected.count == image.width * image.height, sourceLocation: sourceLocation)
    var wrong: [String] = []
    for (texel, want) in expected.enumerated() {
        let got = (0..<4).map { Double(image.pixels[texel * 4 + $0]) }
        if zip(got, want).contains(where: { abs($0 - $1) > tolerance[texel] }) {
            wrong.append("(\(texel % image.width), \(texel / image.width)): \(got.map { Int($0) }) for \(want)")
        }
    }
    #expect(wrong.isEmpty, "\(wrong.count) texels differ: \(wrong.prefix(6).joined(separator: "; "))", sourceLocation: sourceLocation)
}
