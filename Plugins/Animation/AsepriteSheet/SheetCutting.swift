import Preload

/// One frame of an Aseprite export cut from its decoded sheet onto a whole canvas, as the
/// `.aseprite` loader composites one: RGBA8, straight alpha, transparent outside the frame.
enum SheetCutting {
    /// `frame`'s pixels from `page` (checked to hold them), rotation undone, at the frame's
    /// place on a `width` x `height` canvas. A 16-bit sheet gives its high bytes; a premultiplied
    /// one is made straight.
    static func canvas(of frame: AsepriteSheetFormat.Frame, from page: Texture, width: Int, height: Int) -> [UInt8] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        let rect = frame.sheetRect
        // The frame's upright size: a rotated frame is stored turned 90° clockwise, `h x w`.
        let (uprightWidth, uprightHeight) = frame.rotated ? (rect.height, rect.width) : (rect.width, rect.height)
        let wide = page.pixelFormat == .rgba16, premultiplied = page.alphaMode == .premultiplied
        page.pixels.withUnsafeBufferPointer { source in
            for y in 0..<uprightHeight {
                for x in 0..<uprightWidth {
                    // Upright (x, y) is stored at column `uprightHeight - 1 - y`, row `x`.
                    let (sheetX, sheetY) = frame.rotated ? (rect.x + uprightHeight - 1 - y, rect.y + x) : (rect.x + x, rect.y + y)
                    let from = sheetY * page.bytesPerRow + sheetX * (wide ? 8 : 4)
                    let to = ((frame.canvasOrigin.y + y) * width + frame.canvasOrigin.x + x) * 4
                    // Little-endian hosts: a native 16-bit sample's high byte is its second.
                    for channel in 0..<4 { canvas[to + channel] = source[from + (wide ? channel * 2 + 1 : channel)] }
                    let alpha = Int(canvas[to + 3])
                    guard premultiplied, alpha > 0 else { continue }
                    for channel in 0..<3 { canvas[to + channel] = UInt8(min(255, (Int(canvas[to + channel]) * 255 + alpha / 2) / alpha)) }
                }
            }
        }
        return canvas
    }
}
