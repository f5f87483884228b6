import ArgumentParser
import Foundation
import PreloadAuthoring
import Preload
import PreloadAtlas
import PreloadPNG

/// A picture of atlas pages for a person to look at: every page over a checkerboard, one under
/// the other, each frame outlined (green, or orange when stored rotated).
enum ContactSheet {
    static let gap = 8

    /// Draws the atlases among `results` into the PNG at `path`.
    static func write(atlasesAmong results: [AssetResult], to path: String) throws {
        try write(atlases: results.compactMap { $0.outcome.asset as? TextureAtlas }, to: path)
    }

    static func write(atlases: [TextureAtlas], to path: String) throws {
        let pages = atlases.flatMap { atlas in atlas.pages.indices.map { (atlas, $0) } }
        guard !pages.isEmpty else { throw ValidationError("no atlas loaded: nothing to draw a contact sheet of") }
        let width = pages.map { $0.0.pages[$0.1].texture.width }.max()! + 2 * gap
        let height = pages.reduce(gap) { $0 + $1.0.pages[$1.1].texture.height + gap }
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: canvas.count, by: 4) {
            let pixel = index / 4, x = pixel % width, y = pixel / width
            let shade: UInt8 = ((x / 8) + (y / 8)) % 2 == 0 ? 200 : 160
            canvas.replaceSubrange(index..<index + 4, with: [shade, shade, shade, 255])
        }
        var top = gap
        for (atlas, pageIndex) in pages {
            let page = atlas.pages[pageIndex].texture
            composite(page, onto: &canvas, width: width, at: (gap, top))
            for frame in atlas.frames where frame.page == pageIndex {
                let colour: [UInt8] = frame.isRotated ? [255, 140, 0, 255] : [0, 220, 60, 255]
                outline(frame.rect, onto: &canvas, width: width, at: (gap, top), colour: colour)
            }
            top += page.height + gap
        }
        let image = Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: .straight, pixels: canvas)
        try AtomicFile.write([(path, try PNGEncoder.encode(image))])
    }

    /// Draws `page` with its alpha over what is there.
    private static func composite(_ page: Texture, onto canvas: inout [UInt8], width: Int, at origin: (x: Int, y: Int)) {
        guard page.pixelFormat == .rgba8 else { return }
        for y in 0..<page.height {
            for x in 0..<page.width {
                let source = (y * page.width + x) * 4, target = ((origin.y + y) * width + origin.x + x) * 4
                let alpha = Int(page.pixels[source + 3])
                for channel in 0..<3 {
                    canvas[target + channel] = UInt8(
                        (Int(page.pixels[source + channel]) * alpha + Int(canvas[target + channel]) * (255 - alpha)) / 255)
                }
            }
        }
    }

    private static func outline(_ rect: PixelRect, onto canvas: inout [UInt8], width: Int, at origin: (x: Int, y: Int), colour: [UInt8]) {
        func plot(_ x: Int, _ y: Int) {
            let index = ((origin.y + y) * width + origin.x + x) * 4
            canvas.replaceSubrange(index..<index + 4, with: colour)
        }
        guard rect.width > 0, rect.height > 0 else { return }
        for x in rect.x..<rect.maxX {
            plot(x, rect.y)
            plot(x, rect.maxY - 1)
        }
        for y in rect.y..<rect.maxY {
            plot(rect.x, y)
            plot(rect.maxX - 1, y)
        }
    }
}
