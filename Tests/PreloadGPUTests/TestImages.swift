import PreloadGPU

/// Small generated images for the encoder tests: deterministic, no files.
enum TestImages {
    /// A sprite: a transparent background, a shaded disc with an antialiased edge and a dark
    /// outline, and a coloured stripe, `size` × `size`.
    static func sprite(size: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        let center = Double(size) / 2, radius = Double(size) * 0.4
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) + 0.5 - center, dy = Double(y) + 0.5 - center
                let distance = (dx * dx + dy * dy).squareRoot()
                let coverage = min(max(radius - distance + 0.5, 0), 1)
                let outline = distance > radius - 2
                let shade = 0.5 + 0.5 * (1 - distance / radius) - 0.2 * dy / radius
                var color = outline ? [40.0, 20, 60] : [230 * shade, 120 * shade + 40, 60 * shade]
                if abs(dx - dy) < 2, !outline { color = [250, 240, 90] }
                let offset = (y * size + x) * 4
                for channel in 0..<3 { pixels[offset + channel] = UInt8(min(max(color[channel], 0), 255)) }
                pixels[offset + 3] = UInt8(coverage * 255)
            }
        }
        return RGBAImage(width: size, height: size, pixels: pixels)
    }

    /// An opaque diagonal ramp from teal to orange, `width` × `height`.
    static func gradient(width: Int, height: Int) -> RGBAImage {
        var pixels: [UInt8] = []
        let steps = Double(max(width + height - 2, 1))
        for y in 0..<height {
            for x in 0..<width {
                let t = Double(x + y) / steps
                pixels += [UInt8(20 + 220 * t), UInt8(150 - 40 * t), UInt8(170 - 150 * t), 255]
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Deterministic noise (xorshift), `width` × `height`, alpha too when `hasAlpha`.
    static func noise(width: Int, height: Int, hasAlpha: Bool, seed: UInt64 = 39) -> RGBAImage {
        var state = seed | 1
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in pixels.indices where hasAlpha || index % 4 != 3 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            pixels[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
