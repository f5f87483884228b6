/// Aseprite's hue, saturation, color and luminosity blend modes (12 to 15): the non-separable
/// modes of the PDF and W3C compositing specifications, worked as Aseprite works them (from the
/// formulas of its `blend_funcs.cpp`, read, not copied): channels as doubles in 0...1, luminosity
/// `0.3 r + 0.59 g + 0.11 b`, a colour's saturation set by stretching it from its smallest
/// channel, the clip towards the luminosity checking the low side and then the high side
/// against the extremes found before either, and each channel back to 8 bits by truncation
/// (`Int(255 * c)`, as C's conversion does, not rounding).
enum AsepriteHSLBlending {
    typealias Channels = (r: Double, g: Double, b: Double)

    /// The mode's colour for `backdrop` under `source` (alphas are not looked at).
    static func color(_ mode: Int, _ backdrop: AsepriteBlending.Pixel, _ source: AsepriteBlending.Pixel) -> AsepriteBlending.Pixel {
        let b = channels(backdrop), s = channels(source)
        let result: Channels
        switch mode {
        case 12: result = withLuminosity(withSaturation(s, saturation(b)), luminosity(b))  // hue
        case 13: result = withLuminosity(withSaturation(b, saturation(s)), luminosity(b))  // saturation
        case 14: result = withLuminosity(s, luminosity(b))  // color
        default: result = withLuminosity(b, luminosity(s))  // luminosity (15)
        }
        return (Int(255 * result.r), Int(255 * result.g), Int(255 * result.b), source.a)
    }

    static func channels(_ pixel: AsepriteBlending.Pixel) -> Channels {
        (Double(pixel.r) / 255, Double(pixel.g) / 255, Double(pixel.b) / 255)
    }

    static func luminosity(_ c: Channels) -> Double { 0.3 * c.r + 0.59 * c.g + 0.11 * c.b }

    static func saturation(_ c: Channels) -> Double { max(c.r, c.g, c.b) - min(c.r, c.g, c.b) }

    /// `c` stretched from its smallest channel so that its largest is `saturation` above it (all
    /// channels 0 when they are equal).
    static func withSaturation(_ c: Channels, _ saturation: Double) -> Channels {
        let low = min(c.r, c.g, c.b), range = max(c.r, c.g, c.b) - low
        guard range > 0 else { return (0, 0, 0) }
        return ((c.r - low) * saturation / range, (c.g - low) * saturation / range, (c.b - low) * saturation / range)
    }

    /// `c` moved by the same amount on every channel to luminosity `target`, then clipped.
    static func withLuminosity(_ c: Channels, _ target: Double) -> Channels {
        let d = target - luminosity(c)
        return clipped((c.r + d, c.g + d, c.b + d))
    }

    /// Channels outside 0...1 pulled towards the colour's luminosity: first below 0, then above
    /// 1, both against the luminosity and extremes of `c` as given.
    static func clipped(_ c: Channels) -> Channels {
        let l = luminosity(c), low = min(c.r, c.g, c.b), high = max(c.r, c.g, c.b)
        var r = c
        if low < 0 {
            r = (l + (r.r - l) * l / (l - low), l + (r.g - l) * l / (l - low), l + (r.b - l) * l / (l - low))
        }
        if high > 1 {
            r = (l + (r.r - l) * (1 - l) / (high - l), l + (r.g - l) * (1 - l) / (high - l), l + (r.b - l) * (1 - l) / (high - l))
        }
        return r
    }
}
