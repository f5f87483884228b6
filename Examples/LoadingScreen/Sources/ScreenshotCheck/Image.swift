import Foundation
import Preload
import PreloadPNG

/// An RGBA8 image, straight alpha, rows top first.
struct Image {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    static func decode(file: String) throws -> Image {
        try decode(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: file))))
    }

    static func decode(bytes: [UInt8]) throws -> Image {
        let texture = try PNGDecoder.decode(bytes)
        return Image(width: texture.width, height: texture.height, pixels: texture.pixels.array)
    }

    static func black(width: Int, height: Int) -> Image {
        Image(width: width, height: height, pixels: (0..<width * height).flatMap { _ in [UInt8(0), 0, 0, 255] })
    }

    func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> { pixels[(y * width + x) * 4..<(y * width + x) * 4 + 4] }

    func crop(x: Int, y: Int, width: Int, height: Int) -> Image {
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 4)
        for row in y..<y + height { out += pixels[(row * self.width + x) * 4..<(row * self.width + x + width) * 4] }
        return Image(width: width, height: height, pixels: out)
    }

    /// Upside down: what a loader that got the row order wrong would draw.
    func flipped() -> Image {
        Image(width: width, height: height, pixels: (0..<height).reversed().flatMap { crop(x: 0, y: $0, width: width, height: 1).pixels })
    }

    /// Mirrored left to right.
    func mirrored() -> Image {
        Image(width: width, height: height, pixels: (0..<height).flatMap { y in (0..<width).reversed().flatMap { pixel($0, y) } })
    }

    /// Mirrored across the top-left to bottom-right diagonal: rows become columns.
    func transposed() -> Image {
        Image(width: height, height: width, pixels: (0..<width).flatMap { x in (0..<height).flatMap { pixel(x, $0) } })
    }

    /// Colour multiplied by alpha: drawn as straight alpha, that is premultiplying twice.
    func premultiplied() -> Image {
        var out = pixels
        for index in stride(from: 0, to: out.count, by: 4) {
            for channel in 0..<3 { out[index + channel] = UInt8((Int(out[index + channel]) * Int(out[index + 3]) + 127) / 255) }
        }
        return Image(width: width, height: height, pixels: out)
    }

    /// Straight alpha blended over opaque black.
    func overBlack() -> Image {
        var out = premultiplied().pixels
        for index in stride(from: 3, to: out.count, by: 4) { out[index] = 255 }
        return Image(width: width, height: height, pixels: out)
    }

    /// The largest difference of any colour channel.
    func largestDifference(from other: Image) -> Int {
        var largest = 0
        for index in pixels.indices where index % 4 != 3 { largest = max(largest, abs(Int(pixels[index]) - Int(other.pixels[index]))) }
        return largest
    }

    /// `self` with `image` drawn over it at (`x`, `y`) as straight alpha, as SDL's blend mode
    /// draws it (the parts outside `self` left out).
    func blending(_ image: Image, x: Int, y: Int) -> Image {
        var out = self
        for row in stride(from: max(0, -y), to: min(image.height, height - y), by: 1) {
            for column in stride(from: max(0, -x), to: min(image.width, width - x), by: 1) {
                let source = (row * image.width + column) * 4
                let target = ((y + row) * width + x + column) * 4
                let alpha = Int(image.pixels[source + 3])
                for channel in 0..<3 {
                    let blended = Int(image.pixels[source + channel]) * alpha + Int(out.pixels[target + channel]) * (255 - alpha)
                    out.pixels[target + channel] = UInt8((blended + 127) / 255)
                }
            }
        }
        return out
    }

    /// `self` with `image` copied in at (`x`, `y`).
    func placing(_ image: Image, x: Int, y: Int) -> Image {
        var out = self
        for row in 0..<image.height {
            let target = ((y + row) * width + x) * 4
            out.pixels.replaceSubrange(target..<target + image.width * 4, with: image.pixels[row * image.width * 4..<(row + 1) * image.width * 4])
        }
        return out
    }
}

extension Image {
    /// Peak signal-to-noise ratio against `other` (the same size) over the colour channels, in dB:
    /// `10 log10(255² / mean squared error)`; `.infinity` when they are the same.
    func psnr(against other: Image) -> Double {
        var total = 0
        for index in pixels.indices where index % 4 != 3 {
            let difference = Int(pixels[index]) - Int(other.pixels[index])
            total += difference * difference
        }
        guard total > 0 else { return .infinity }
        return 10 * log10(255 * 255 * Double(width * height * 3) / Double(total))
    }
}
