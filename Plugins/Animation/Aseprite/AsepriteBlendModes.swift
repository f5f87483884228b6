/// Aseprite's blend modes other than normal, as its export composites them (its "new blend"
/// methods, the default): the mode's colour is blended in normal mode, then merged with plain
/// normal blending by the backdrop's alpha and the source's, so a mode fades to normal over
/// transparency. The separable modes work channel by channel (``channel(_:_:_:)``), hue,
/// saturation, color and luminosity on the whole colour (``AsepriteHSLBlending``). Grayscale
/// pixels blend as RGB with equal channels: Aseprite's sheet export renders a grayscale sprite
/// into an RGB sheet, through its RGB blend functions. From the formulas of its
/// `blend_funcs.cpp` (read, not copied).
enum AsepriteBlendModes {
    /// The layer chunk's numbers of the modes Aseprite defines: normal (0) to divide (18).
    static func isDefined(_ mode: Int) -> Bool { (0...18).contains(mode) }

    /// pixman's `DIV_UN8`: `a * 255 / b`, rounded.
    @inline(__always) static func divide(_ a: Int, _ b: Int) -> Int { (a * 255 + b / 2) / b }

    /// One channel of mode `mode` for backdrop `b` and source `s`.
    static func channel(_ mode: Int, _ b: Int, _ s: Int) -> Int {
        let multiply = AsepriteBlending.multiply
        func hardLight(_ b: Int, _ s: Int) -> Int { s < 128 ? multiply(b, s << 1) : b + ((s << 1) - 255) - multiply(b, (s << 1) - 255) }
        switch mode {
        case 1: return multiply(b, s)
        case 2: return b + s - multiply(b, s)
        case 3: return hardLight(s, b)
        case 4: return min(b, s)
        case 5: return max(b, s)
        case 6: return b == 0 ? 0 : b >= 255 - s ? 255 : divide(b, 255 - s)
        case 7: return b == 255 ? 255 : 255 - b >= s ? 0 : 255 - divide(255 - b, s)
        case 8: return hardLight(b, s)
        case 9: return softLight(b, s)
        case 10: return abs(b - s)
        case 11: return b + s - 2 * multiply(b, s)
        case 16: return min(b + s, 255)
        case 17: return max(b - s, 0)
        case 18: return b == 0 ? 0 : b >= s ? 255 : divide(b, s)
        default: return s  // normal
        }
    }

    /// Soft light, in doubles as Aseprite computes it, rounded to 8 bits.
    static func softLight(_ backdrop: Int, _ source: Int) -> Int {
        let b = Double(backdrop) / 255, s = Double(source) / 255
        let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
        let r = s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b) : b + (2 * s - 1) * (d - b)
        return Int(r * 255 + 0.5)
    }

    /// Aseprite's merge of `backdrop` towards `source` by `amount`.
    static func merge(_ backdrop: AsepriteBlending.Pixel, _ source: AsepriteBlending.Pixel, _ amount: Int) -> AsepriteBlending.Pixel {
        let multiply = AsepriteBlending.multiply
        let alpha = backdrop.a + multiply(source.a - backdrop.a, amount)
        if alpha == 0 { return (0, 0, 0, 0) }
        if backdrop.a == 0 { return (source.r, source.g, source.b, alpha) }
        if source.a == 0 { return (backdrop.r, backdrop.g, backdrop.b, alpha) }
        return (
            backdrop.r + multiply(source.r - backdrop.r, amount), backdrop.g + multiply(source.g - backdrop.g, amount),
            backdrop.b + multiply(source.b - backdrop.b, amount), alpha
        )
    }

    /// `source` at `opacity` over the RGBA8 pixel at `canvas[at]` in mode `mode`.
    static func blend(_ mode: Int, source: AsepriteBlending.Pixel, opacity: Int, onto canvas: inout [UInt8], at: Int) {
        let backdrop = AsepriteBlending.pixel(canvas, at: at)
        guard backdrop.a != 0 else { return AsepriteBlending.normal(source: source, opacity: opacity, onto: &canvas, at: at) }
        let mixed =
            (12...15).contains(mode)
            ? AsepriteHSLBlending.color(mode, backdrop, source)
            : (r: channel(mode, backdrop.r, source.r), g: channel(mode, backdrop.g, source.g), b: channel(mode, backdrop.b, source.b), a: source.a)
        let normal = AsepriteBlending.normal(backdrop, source, opacity: opacity)
        let blended = AsepriteBlending.normal(backdrop, mixed, opacity: opacity)
        let composite = AsepriteBlending.multiply(backdrop.a, AsepriteBlending.multiply(source.a, opacity))
        AsepriteBlending.store(merge(merge(normal, blended, backdrop.a), blended, composite), into: &canvas, at: at)
    }
}
