/// One frame of an indexed sprite with one palette, composited as Aseprite's sprite sheet export
/// composites it: into a sheet of palette indexes (its indexed-to-indexed blender), not colours.
///
/// The frame starts as the transparent index; each cel's pixels, in the compositor's order,
/// replace what is under them unless they are the transparent index or past the palette's
/// size; opacity and blend modes do not apply (an index cannot be half of one). The sheet's
/// PNG shows each index as its palette entry, with the transparent index fully transparent
/// (the sheet has no background layer, so Aseprite's PNG writer makes that entry transparent),
/// which is what this frame's RGBA pixels are.
struct AsepriteIndexedFrame {
    let compositor: AsepriteCompositor
    let frame: Int

    /// The frame's RGBA8 pixels, straight alpha, from `cels` (the compositor's plan).
    func composite(_ cels: [AsepriteDocument.Cel]) throws -> [UInt8] {
        let document = compositor.document
        let transparent = document.transparentIndex, colors = document.frames[frame].paletteCount
        var indexes = [UInt8](repeating: UInt8(transparent), count: document.width * document.height)
        for cel in cels {
            try compositor.forEachImage(of: cel, layer: document.layers[cel.layer]) { pixels, base, width, height, origin, flips in
                compositor.place(width: width, height: height, at: origin, flips: flips) { source, target in
                    guard let source else { return indexes[target] = 0 }
                    let index = pixels[base + source]
                    if Int(index) != transparent, Int(index) < colors { indexes[target] = index }
                }
            }
        }
        let palette = document.frames[frame].palette
        var canvas = [UInt8](repeating: 0, count: indexes.count * 4)
        for (pixel, index) in indexes.enumerated() where Int(index) != transparent && Int(index) < colors {
            canvas.replaceSubrange(pixel * 4..<pixel * 4 + 4, with: palette[Int(index) * 4..<Int(index) * 4 + 4])
        }
        return canvas
    }
}
