import Foundation

/// How far a decoded image is from its source: PSNR in decibels, for benchmarks and tests of the
/// block encoders.
public enum ImageQuality {
    /// The samples compared.
    public enum Channels: Sendable {
        /// Red, green, blue and alpha as they are.
        case rgba
        /// Red, green and blue multiplied by alpha first (`(c * a + 127) / 255`, on both images),
        /// then all four: what blending a straight-alpha texture shows, so that the colour of
        /// invisible pixels costs nothing.
        case premultipliedRGBA
    }

    /// The error between two images of the same size.
    public struct Comparison: Hashable, Sendable {
        /// Mean squared error over every compared sample.
        public let meanSquaredError: Double
        /// Peak signal-to-noise ratio, `10 log10(255² / meanSquaredError)`; `.infinity` when the
        /// images are the same.
        public var psnr: Double { Self.psnr(meanSquaredError) }
        /// The mean squared error of the worst 4×4 block (aligned to the block grid; partial
        /// edge blocks over their pixels).
        public let worstBlockMeanSquaredError: Double
        /// PSNR of the worst 4×4 block.
        public var worstBlockPSNR: Double { Self.psnr(worstBlockMeanSquaredError) }
        /// Left edge of the worst block, in pixels.
        public let worstBlockX: Int
        /// Top edge of the worst block, in pixels.
        public let worstBlockY: Int

        private static func psnr(_ meanSquaredError: Double) -> Double {
            meanSquaredError == 0 ? .infinity : 10 * log10(255 * 255 / meanSquaredError)
        }
    }

    /// Why two images cannot be compared.
    public enum ComparisonError: Error, Hashable, Sendable {
        /// The images differ in size.
        case sizeMismatch(sourceWidth: Int, sourceHeight: Int, decodedWidth: Int, decodedHeight: Int)
    }

    /// Compares `decoded` with `source` over `channels`.
    public static func compare(_ source: RGBAImage, _ decoded: RGBAImage, over channels: Channels) throws(ComparisonError) -> Comparison {
        guard source.width == decoded.width, source.height == decoded.height else {
            throw .sizeMismatch(sourceWidth: source.width, sourceHeight: source.height, decodedWidth: decoded.width, decodedHeight: decoded.height)
        }
        let width = source.width, height = source.height
        guard width > 0, height > 0 else { return Comparison(meanSquaredError: 0, worstBlockMeanSquaredError: 0, worstBlockX: 0, worstBlockY: 0) }
        let premultiplies = channels == .premultipliedRGBA
        var total: UInt64 = 0
        var worst: Double = 0
        var worstBlock = (x: 0, y: 0)
        source.pixels.withUnsafeBufferPointer { first in
            decoded.pixels.withUnsafeBufferPointer { second in
                for blockY in stride(from: 0, to: height, by: 4) {
                    for blockX in stride(from: 0, to: width, by: 4) {
                        var blockError: UInt64 = 0
                        let rows = min(4, height - blockY), columns = min(4, width - blockX)
                        for y in blockY..<blockY + rows {
                            for x in blockX..<blockX + columns {
                                let offset = (y * width + x) * 4
                                blockError += squaredError(first.baseAddress! + offset, second.baseAddress! + offset, premultiplies: premultiplies)
                            }
                        }
                        total += blockError
                        let blockMean = Double(blockError) / Double(rows * columns * 4)
                        if blockMean > worst {
                            worst = blockMean
                            worstBlock = (blockX, blockY)
                        }
                    }
                }
            }
        }
        return Comparison(
            meanSquaredError: Double(total) / Double(width * height * 4), worstBlockMeanSquaredError: worst, worstBlockX: worstBlock.x,
            worstBlockY: worstBlock.y)
    }

    /// PSNR of `decoded` against `source` over `channels`: ``Comparison/psnr`` of
    /// ``compare(_:_:over:)``.
    public static func psnr(_ source: RGBAImage, _ decoded: RGBAImage, over channels: Channels) throws(ComparisonError) -> Double {
        try compare(source, decoded, over: channels).psnr
    }

    @inline(__always)
    private static func squaredError(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, premultiplies: Bool) -> UInt64 {
        var sum: Int32 = 0
        let firstAlpha = Int32(first[3]), secondAlpha = Int32(second[3])
        for channel in 0..<3 {
            var a = Int32(first[channel]), b = Int32(second[channel])
            if premultiplies {
                a = (a * firstAlpha + 127) / 255
                b = (b * secondAlpha + 127) / 255
            }
            sum += (a - b) * (a - b)
        }
        sum += (firstAlpha - secondAlpha) * (firstAlpha - secondAlpha)
        return UInt64(sum)
    }
}
