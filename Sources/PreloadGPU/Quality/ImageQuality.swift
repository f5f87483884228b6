import Foundation

/// How close an image is to another: peak signal-to-noise ratio.
public enum ImageQuality {
    /// PSNR of `candidate` against `reference` over all four channels, in dB; `.infinity` when they
    /// are equal. With `premultiplied`, both are premultiplied first (`c × a / 255`), so colour
    /// under transparent pixels does not count.
    public static func psnr(_ reference: RGBAImage, _ candidate: RGBAImage, premultiplied: Bool) -> Double {
        precondition(reference.width == candidate.width && reference.height == candidate.height, "psnr: sizes differ")
        var squares = 0.0
        reference.pixels.withUnsafeBufferPointer { a in
            candidate.pixels.withUnsafeBufferPointer { b in
                for pixel in stride(from: 0, to: a.count, by: 4) {
                    for channel in 0..<4 {
                        var x = Int(a[pixel + channel]), y = Int(b[pixel + channel])
                        if premultiplied, channel < 3 {
                            x = (x * Int(a[pixel + 3]) + 127) / 255
                            y = (y * Int(b[pixel + 3]) + 127) / 255
                        }
                        squares += Double((x - y) * (x - y))
                    }
                }
            }
        }
        guard squares > 0 else { return .infinity }
        let mean = squares / Double(reference.pixels.count)
        return 10 * log10(255 * 255 / mean)
    }
}
