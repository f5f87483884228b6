/// Aseprite's blend arithmetic on 8-bit channels (its `blend_funcs.cpp`, from the formulas, not
/// the code): results match its export to the bit.
enum AsepriteBlending {
    /// One straight-alpha RGBA pixel, each channel 0...255.
    typealias Pixel = (r: Int, g: Int, b: Int, a: Int)

    /// `a * b / 255`, rounded as pixman's `MUL_UN8` rounds.
    @inline(__always) static func multiply(_ a: Int, _ b: Int) -> Int {
        let t = a * b + 0x80
        return ((t >> 8) + t) >> 8
    }

    /// The RGBA8 pixel at `canvas[at]`.
    @inline(__always) static func pixel(_ canvas: [UInt8], at: Int) -> Pixel {
        (Int(canvas[at]), Int(canvas[at + 1]), Int(canvas[at + 2]), Int(canvas[at + 3]))
    }

    /// Normal mode: `source` at `opacity` over `backdrop`, straight alpha. Over a transparent
    /// pixel the source's colour is kept with its alpha times the opacity; otherwise each
    /// channel moves towards the source by its share of the result's alpha (integer division
    /// truncating, as C's does).
    @inline(__always) static func normal(_ backdrop: Pixel, _ source: Pixel, opacity: Int) -> Pixel {
        if backdrop.a == 0 { return (source.r, source.g, source.b, multiply(source.a, opacity)) }
        guard source.a != 0 else { return backdrop }
        let sourceAlpha = multiply(source.a, opacity)
        let resultAlpha = sourceAlpha + backdrop.a - multiply(backdrop.a, sourceAlpha)
        return (
            backdrop.r + (source.r - backdrop.r) * sourceAlpha / resultAlpha, backdrop.g + (source.g - backdrop.g) * sourceAlpha / resultAlpha,
            backdrop.b + (source.b - backdrop.b) * sourceAlpha / resultAlpha, resultAlpha
        )
    }

    /// ``normal(_:_:opacity:)`` onto the RGBA8 pixel at `canvas[at]`.
    @inline(__always) static func normal(source: Pixel, opacity: Int, onto canvas: inout [UInt8], at: Int) {
        store(normal(pixel(canvas, at: at), source, opacity: opacity), into: &canvas, at: at)
    }

    /// Writes `pixel` at `canvas[at]`.
    @inline(__always) static func store(_ pixel: Pixel, into canvas: inout [UInt8], at: Int) {
        canvas[at] = UInt8(pixel.r)
        canvas[at + 1] = UInt8(pixel.g)
        canvas[at + 2] = UInt8(pixel.b)
        canvas[at + 3] = UInt8(pixel.a)
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
