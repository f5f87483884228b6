import Preload

/// Makes a texture's mipmap chain: each level half the one before (rounding down, never below 1),
/// down to 1 × 1.
///
/// The filter is a box over the pixels each smaller pixel covers (2 × 2, or a fraction of a third
/// column or row where a side is odd), applied **in linear light** for `ColorSpace.sRGB`
/// textures (sRGB-encoded values averaged as they are darken every level) and **weighted by
/// alpha** (colour is premultiplied before filtering and divided again after, so the colour of a
/// transparent pixel never bleeds into its visible neighbours; a pixel that comes out wholly
/// transparent keeps the plain average of the colours under it, not black, so that a GPU filtering
/// between it and a visible neighbour blends with the same colour at every level). Each level is
/// filtered from the one above it kept in floating point, not from its rounded bytes. Levels come back in the
/// texture's own alpha mode: a premultiplied texture's levels are premultiplied as its pixels are
/// (`c × a / 255` on the encoded values, as `Premultiplication` does).
///
/// ```swift
/// import Preload
/// import PreloadGPU
///
/// let image = RGBAImage(width: 4, height: 2, pixels: [UInt8](repeating: 255, count: 32))
/// let levels = MipChain.levels(of: image, colorSpace: .sRGB, alphaMode: .straight)
/// print(levels.map { "\($0.width)x\($0.height)" })   // ["4x2", "2x1", "1x1"]
/// ```
public enum MipChain {
    /// `image` and each smaller level after it, `count` levels in all (the full chain when `nil`).
    public static func levels(of image: RGBAImage, colorSpace: ColorSpace, alphaMode: AlphaMode, count: Int? = nil) -> [RGBAImage] {
        let total = min(count ?? Int.max, Texture.fullMipLevelCount(width: image.width, height: image.height))
        var levels = [image]
        guard total > 1 else { return levels }
        let space = Space(colorSpace: colorSpace, alphaMode: alphaMode)
        var current = space.weighted(image)
        while levels.count < total {
            current = current.halved()
            levels.append(space.bytes(current))
        }
        return levels
    }

    /// Premultiplied, linear samples: what the filter averages.
    struct WeightedImage {
        var width: Int
        var height: Int
        /// Red, green, blue (linear, times alpha), alpha, 0...1; then red, green, blue (linear)
        /// not weighted, the colour a pixel that comes out wholly transparent keeps; then 0.
        var samples: [SIMD8<Float>]

        /// The next level: a box filter horizontally, then vertically.
        func halved() -> WeightedImage {
            let newWidth = max(1, width / 2), newHeight = max(1, height / 2)
            let across = Self.weights(from: width, to: newWidth), down = Self.weights(from: height, to: newHeight)
            var rows = [SIMD8<Float>](repeating: .zero, count: newWidth * height)
            samples.withUnsafeBufferPointer { source in
                rows.withUnsafeMutableBufferPointer { target in
                    for y in 0..<height {
                        for x in 0..<newWidth {
                            var sum = SIMD8<Float>.zero
                            for (column, weight) in across[x] { sum += source[y * width + column] * weight }
                            target[y * newWidth + x] = sum
                        }
                    }
                }
            }
            var result = [SIMD8<Float>](repeating: .zero, count: newWidth * newHeight)
            rows.withUnsafeBufferPointer { source in
                result.withUnsafeMutableBufferPointer { target in
                    for y in 0..<newHeight {
                        for x in 0..<newWidth {
                            var sum = SIMD8<Float>.zero
                            for (row, weight) in down[y] { sum += source[row * newWidth + x] * weight }
                            target[y * newWidth + x] = sum
                        }
                    }
                }
            }
            return WeightedImage(width: newWidth, height: newHeight, samples: result)
        }

        /// For each of `newSize` pixels, the pixels of a side of `size` it covers and how much
        /// of each (summing to 1): 2 whole pixels when halving an even side; a fraction of a
        /// third when the side is odd; the pixel itself when the side is already 1.
        static func weights(from size: Int, to newSize: Int) -> [[(Int, Float)]] {
            let scale = Double(size) / Double(newSize)
            return (0..<newSize).map { target in
                let start = Double(target) * scale, end = Double(target + 1) * scale
                var covered: [(Int, Float)] = []
                var pixel = Int(start.rounded(.down))
                while Double(pixel) < end, pixel < size {
                    let overlap = min(end, Double(pixel + 1)) - max(start, Double(pixel))
                    if overlap > 1e-9 { covered.append((pixel, Float(overlap / scale))) }
                    pixel += 1
                }
                return covered
            }
        }
    }

    /// How bytes become weighted samples and back, for a colour space and an alpha mode.
    struct Space {
        var colorSpace: ColorSpace
        var alphaMode: AlphaMode

        /// Encoded value (0...255) to linear (0...1).
        static let decoded: [Float] = (0..<256).map { code in
            let value = Float(code) / 255
            return value <= 0.04045 ? value / 12.92 : Float(pow(Double((value + 0.055) / 1.055), 2.4))
        }
        /// Linear, in 16,384 steps, to the nearest encoded value.
        static let encodedSteps = 16384
        static let encoded: [UInt8] = (0..<encodedSteps).map { step in
            let value = Double(step) / Double(encodedSteps - 1)
            let code = value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (code * 255).rounded())))
        }

        func weighted(_ image: RGBAImage) -> WeightedImage {
            let count = image.width * image.height
            var samples = [SIMD8<Float>](repeating: .zero, count: count)
            image.pixels.withUnsafeBufferPointer { pixels in
                for index in 0..<count {
                    let alphaByte = pixels[index * 4 + 3]
                    let alpha = Float(alphaByte) / 255
                    var colour = SIMD3<Float>.zero
                    for channel in 0..<3 {
                        var code = Float(pixels[index * 4 + channel])
                        if alphaMode == .premultiplied {
                            code = alphaByte == 0 ? 0 : min(255, code * 255 / Float(alphaByte))
                        }
                        colour[channel] = colorSpace == .sRGB ? Self.decoded[Int(code.rounded())] : code / 255
                    }
                    let weighted = colour * alpha
                    samples[index] = SIMD8(weighted.x, weighted.y, weighted.z, alpha, colour.x, colour.y, colour.z, 0)
                }
            }
            return WeightedImage(width: image.width, height: image.height, samples: samples)
        }

        func bytes(_ image: WeightedImage) -> RGBAImage {
            var pixels = [UInt8](repeating: 0, count: image.width * image.height * 4)
            for (index, sample) in image.samples.enumerated() {
                let alpha = min(max(sample[3], 0), 1)
                let alphaByte = UInt8((alpha * 255).rounded())
                pixels[index * 4 + 3] = alphaByte
                // A premultiplied pixel that comes out wholly transparent is all zeros; a straight
                // one keeps the plain average of the colours it covers (what its neighbours blend
                // with when the GPU filters between them), not black.
                guard alphaByte > 0 || alphaMode == .straight else { continue }
                for channel in 0..<3 {
                    let linear = min(max(alphaByte > 0 ? sample[channel] / sample[3] : sample[4 + channel], 0), 1)
                    var code =
                        colorSpace == .sRGB
                        ? Self.encoded[Int((linear * Float(Self.encodedSteps - 1)).rounded())] : UInt8((linear * 255).rounded())
                    if alphaMode == .premultiplied { code = UInt8((UInt32(code) * UInt32(alphaByte) + 127) / 255) }
                    pixels[index * 4 + channel] = code
                }
            }
            return RGBAImage(width: image.width, height: image.height, pixels: pixels)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
