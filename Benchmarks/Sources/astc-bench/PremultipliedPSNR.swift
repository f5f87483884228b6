import Foundation
import PreloadGPU

/// PSNR as the issue measures it: both images premultiplied, `(c * a + 127) / 255`, then the
/// mean squared error over all four channels; 99 dB for identical images (so that means stay finite).
enum PremultipliedPSNR {
    static func between(_ original: RGBAImage, _ decoded: RGBAImage) -> Double {
        var squares = 0
        original.pixels.withUnsafeBufferPointer { a in
            decoded.pixels.withUnsafeBufferPointer { b in
                for pixel in stride(from: 0, to: a.count, by: 4) {
                    let alphaA = Int(a[pixel + 3]), alphaB = Int(b[pixel + 3])
                    for channel in 0..<3 {
                        let difference = (Int(a[pixel + channel]) * alphaA + 127) / 255 - (Int(b[pixel + channel]) * alphaB + 127) / 255
                        squares += difference * difference
                    }
                    squares += (alphaA - alphaB) * (alphaA - alphaB)
                }
            }
        }
        guard squares > 0 else { return 99 }
        return min(99, 10 * log10(255 * 255 / (Double(squares) / Double(original.pixels.count))))
    }
}
