import Preload
import PreloadAtlas

/// The frames of an Aseprite export cut from its decoded sheet, as the `.aseprite` loader's
/// composited ones are: trimmed, straight RGBA8 (``FramePacking/Trim``). An upright frame is
/// read in place on the sheet, its page copy the only one; a rotated one is turned upright by
/// PreloadAtlas (`TextureAtlas.image(of:)`) first.
enum SheetCutting {
    /// `frames`' trimmed pixels on `page` (checked to hold their rectangles). A 16-bit sheet
    /// gives its high bytes; a premultiplied one is made straight (once, the whole sheet).
    static func trims(of frames: [AtlasFrame], from page: Texture) throws -> [FramePacking.Trim] {
        let sheet = straightRGBA8(page)
        let atlas = TextureAtlas(format: .texturePackerHash, pages: [AtlasPage(path: "", texture: sheet)], frames: [])
        return try frames.map { frame in
            guard frame.rotation == .none else {
                let upright = try atlas.image(of: frame)  // on its source-size canvas
                return FramePacking.Trim(
                    of: upright.pixels, start: 0, stride: upright.bytesPerRow, width: upright.width, height: upright.height, origin: (0, 0))
            }
            return FramePacking.Trim(
                of: sheet.pixels, start: frame.rect.y * sheet.bytesPerRow + frame.rect.x * 4, stride: sheet.bytesPerRow,
                width: frame.rect.width, height: frame.rect.height, origin: (frame.offsetX, frame.offsetY))
        }
    }

    /// `page` as straight RGBA8: itself when it is; else a copy of its high bytes (little-endian
    /// hosts: a native 16-bit sample's high byte is its second), colour divided by alpha when
    /// premultiplied.
    static func straightRGBA8(_ page: Texture) -> Texture {
        let wide = page.pixelFormat == .rgba16, premultiplied = page.alphaMode == .premultiplied
        guard wide || premultiplied else { return page }
        let (width, height) = (page.width, page.height)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, count in
            page.pixels.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    for x in 0..<width {
                        let from = y * page.bytesPerRow + x * (wide ? 8 : 4), to = (y * width + x) * 4
                        for channel in 0..<4 { output[to + channel] = source[from + (wide ? channel * 2 + 1 : channel)] }
                        let alpha = Int(output[to + 3])
                        guard premultiplied, alpha > 0 else { continue }
                        for channel in 0..<3 { output[to + channel] = UInt8(min(255, (Int(output[to + channel]) * 255 + alpha / 2) / alpha)) }
                    }
                }
            }
            count = width * height * 4
        }
        return Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels)
    }
}
