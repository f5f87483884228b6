/// Aseprite's blend arithmetic on 8-bit channels (its `blend_funcs.cpp`, from the formulas, not
/// the code): results match its export to the bit.
enum AsepriteBlending {
    /// `a * b / 255`, rounded as pixman's `MUL_UN8` rounds.
    @inline(__always) static func multiply(_ a: Int, _ b: Int) -> Int {
        let t = a * b + 0x80
        return ((t >> 8) + t) >> 8
    }

    /// Normal mode: `source` at `opacity` over the RGBA8 pixel at `canvas[at]`, straight alpha.
    /// Over a transparent pixel the source's colour is kept with its alpha times the opacity;
    /// otherwise each channel moves towards the source by its share of the result's alpha
    /// (integer division truncating, as C's does).
    @inline(__always) static func normal(source: (r: Int, g: Int, b: Int, a: Int), opacity: Int, onto canvas: inout [UInt8], at: Int) {
        let backdropAlpha = Int(canvas[at + 3])
        if backdropAlpha == 0 {
            canvas[at] = UInt8(source.r)
            canvas[at + 1] = UInt8(source.g)
            canvas[at + 2] = UInt8(source.b)
            canvas[at + 3] = UInt8(multiply(source.a, opacity))
            return
        }
        guard source.a != 0 else { return }
        let sourceAlpha = multiply(source.a, opacity)
        let resultAlpha = sourceAlpha + backdropAlpha - multiply(backdropAlpha, sourceAlpha)
        canvas[at] = channel(Int(canvas[at]), source.r, sourceAlpha, resultAlpha)
        canvas[at + 1] = channel(Int(canvas[at + 1]), source.g, sourceAlpha, resultAlpha)
        canvas[at + 2] = channel(Int(canvas[at + 2]), source.b, sourceAlpha, resultAlpha)
        canvas[at + 3] = UInt8(resultAlpha)
    }

    /// One channel of ``normal(source:opacity:onto:at:)``: `backdrop + (value - backdrop) * alpha / result`.
    @inline(__always) private static func channel(_ backdrop: Int, _ value: Int, _ alpha: Int, _ result: Int) -> UInt8 {
        UInt8(backdrop + (value - backdrop) * alpha / result)
    }

    /// Aseprite's name for blend mode `mode` (the layer chunk's numbering).
    static func modeName(_ mode: Int) -> String {
        let names = [
            "normal", "multiply", "screen", "overlay", "darken", "lighten", "color dodge", "color burn", "hard light", "soft light",
            "difference", "exclusion", "hue", "saturation", "color", "luminosity", "addition", "subtract", "divide",
        ]
        return mode < names.count ? "\(names[mode]) (\(mode))" : "unknown blend mode \(mode)"
    }
}
