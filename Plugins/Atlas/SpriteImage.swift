import Preload

/// Pixel work for packing: finding a sprite's visible part, and drawing sprites onto pages.
enum SpriteImage {
    /// The smallest rectangle holding every pixel with alpha above 0; a fully transparent image
    /// keeps a 1x1 rectangle at its origin.
    static func opaqueBounds(of texture: Texture) -> PixelRect {
        var minX = texture.width, minY = texture.height, maxX = -1, maxY = -1
        texture.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<texture.height {
                let row = y * texture.width * 4
                for x in 0..<texture.width where pixels[row + x * 4 + 3] != 0 {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxX >= 0 else { return PixelRect(x: 0, y: 0, width: 1, height: 1) }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// A transparent RGBA8 page being filled with sprites.
    struct Canvas {
        let width: Int
        let height: Int
        private(set) var pixels: [UInt8]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            pixels = [UInt8](repeating: 0, count: width * height * 4)
        }

        /// Copies `box` of `texture` to `at` (turned 90° clockwise if `rotated`), then repeats
        /// its edge pixels `extrusion` times outward.
        mutating func draw(_ texture: Texture, from box: PixelRect, at: (x: Int, y: Int), rotated: Bool, extrusion: Int) {
            let storedWidth = rotated ? box.height : box.width, storedHeight = rotated ? box.width : box.height
            let canvasWidth = width
            texture.pixels.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { target in
                    for y in 0..<box.height {
                        for x in 0..<box.width {
                            let from = ((box.y + y) * texture.width + box.x + x) * 4
                            let (tx, ty) = rotated ? (at.x + box.height - 1 - y, at.y + x) : (at.x + x, at.y + y)
                            let to = (ty * canvasWidth + tx) * 4
                            for channel in 0..<4 { target[to + channel] = source[from + channel] }
                        }
                    }
                }
            }
            guard extrusion > 0 else { return }
            for step in 1...extrusion {
                for y in at.y..<(at.y + storedHeight) {
                    copyPixel(from: (at.x, y), to: (at.x - step, y))
                    copyPixel(from: (at.x + storedWidth - 1, y), to: (at.x + storedWidth - 1 + step, y))
                }
            }
            for step in 1...extrusion {
                for x in (at.x - extrusion)..<(at.x + storedWidth + extrusion) {
                    copyPixel(from: (x, at.y), to: (x, at.y - step))
                    copyPixel(from: (x, at.y + storedHeight - 1), to: (x, at.y + storedHeight - 1 + step))
                }
            }
        }

        private mutating func copyPixel(from: (x: Int, y: Int), to: (x: Int, y: Int)) {
            guard to.x >= 0, to.y >= 0, to.x < width, to.y < height else { return }
            let source = (from.y * width + from.x) * 4, target = (to.y * width + to.x) * 4
            for channel in 0..<4 { pixels[target + channel] = pixels[source + channel] }
        }

        func texture() -> Texture {
            Texture(width: width, height: height, pixelFormat: .rgba8, alphaMode: .straight, pixels: pixels)
        }
    }
}
