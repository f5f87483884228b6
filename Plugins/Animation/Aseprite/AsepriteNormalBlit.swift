/// The compositor's common case on raw memory: an RGBA image blended onto an RGBA canvas in
/// normal mode (``AsepriteBlending/normal(_:_:opacity:)``'s arithmetic, to the bit), row by row
/// through buffer pointers, without a pixel tuple or a bounds check a channel.
enum AsepriteNormalBlit {
    /// Blends the `width` x `height` RGBA8 image in `pixels` (from pixel `base`) with its top left
    /// corner at `origin` onto `canvas` (`canvasWidth` x `canvasHeight` RGBA8), clipped to the
    /// canvas, at `opacity`; a pixel equal to `mask` (the colour `(mask, 0, 0, 0)`), when given,
    /// is left out. `ontoZeros` says the canvas is all zero bytes where the image lands (nothing
    /// drawn there yet): at full opacity each row is then copied whole, which is what blending
    /// gives there (every pixel copied as it is, a mask pixel `(0, 0, 0, 0)` left on zeros).
    static func draw(
        _ pixels: [UInt8], base: Int = 0, width: Int, height: Int, at origin: (x: Int, y: Int), opacity: Int, mask: Int? = nil,
        onto canvas: inout [UInt8], canvasWidth: Int, canvasHeight: Int, ontoZeros: Bool = false
    ) {
        let left = max(0, -origin.x), right = min(width, canvasWidth - origin.x)
        let top = max(0, -origin.y), bottom = min(height, canvasHeight - origin.y)
        guard left < right, top < bottom else { return }
        if ontoZeros, opacity == 255, (mask ?? 0) == 0 {
            pixels.withUnsafeBytes { source in
                canvas.withUnsafeMutableBytes { target in
                    for row in top..<bottom {
                        let from = (base + row * width + left) * 4, to = ((origin.y + row) * canvasWidth + origin.x + left) * 4
                        (target.baseAddress! + to).copyMemory(from: source.baseAddress! + from, byteCount: (right - left) * 4)
                    }
                }
            }
            return
        }
        let multiply = AsepriteBlending.multiply
        pixels.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutableBufferPointer { target in
                for row in top..<bottom {
                    var from = (base + row * width + left) * 4
                    var to = ((origin.y + row) * canvasWidth + origin.x + left) * 4
                    for _ in left..<right {
                        defer { (from, to) = (from + 4, to + 4) }
                        let sourceAlpha = Int(source[from + 3])
                        if let mask, sourceAlpha == 0, source[from + 2] == 0, source[from + 1] == 0, Int(source[from]) == mask { continue }
                        let backdropAlpha = Int(target[to + 3])
                        if backdropAlpha == 0 && opacity == 255 {
                            // multiply(a, 255) is a: the pixel as it is.
                            UnsafeMutableRawPointer(target.baseAddress! + to).copyMemory(from: source.baseAddress! + from, byteCount: 4)
                            continue
                        }
                        if backdropAlpha == 0 {
                            target[to] = source[from]
                            target[to + 1] = source[from + 1]
                            target[to + 2] = source[from + 2]
                            target[to + 3] = UInt8(multiply(sourceAlpha, opacity))
                            continue
                        }
                        guard sourceAlpha != 0 else { continue }
                        let alpha = multiply(sourceAlpha, opacity)
                        let resultAlpha = alpha + backdropAlpha - multiply(backdropAlpha, alpha)
                        for channel in 0..<3 {
                            let backdrop = Int(target[to + channel])
                            target[to + channel] = UInt8(backdrop + (Int(source[from + channel]) - backdrop) * alpha / resultAlpha)
                        }
                        target[to + 3] = UInt8(resultAlpha)
                    }
                }
            }
        }
    }
}
