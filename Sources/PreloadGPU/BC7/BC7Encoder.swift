import Dispatch
import Foundation
import PreloadConcurrency

/// Encodes RGBA8 images to BC7 blocks (BPTC, `VK_FORMAT_BC7_*_BLOCK`, `GL_COMPRESSED_RGBA_BPTC_UNORM`):
/// 16 bytes per 4×4 block, at 8 bits a pixel, with alpha.
///
/// Each block tries the modes of its ``EncoderQuality`` (opaque blocks: 6 and 1, then 3, 5, 0, 2 and 4 as
/// quality rises; blocks with alpha: 6, 5 and 7, then 4), fitting endpoints along the pixels'
/// principal axis, refining them by least squares and small steps, with the best p-bits;
/// partitions are ranked by an estimate and the best few searched. One-colour blocks
/// (and wholly transparent ones, when colour is weighted by alpha) are encoded exactly. Blocks are
/// encoded on several threads; the output does not depend on how many.
public struct BC7Encoder: Sendable {
    /// What to encode for.
    public struct Options: Sendable, Hashable {
        /// Search effort.
        public var quality: EncoderQuality
        /// For straight-alpha textures blended by alpha: weight each pixel's colour error by its
        /// opacity squared (what premultiplying shows), so invisible pixels cost nothing and the
        /// bits go to what is seen. Leave off when colour under low alpha matters (bilinear
        /// filtering of straight alpha picks up the colour of transparent neighbours).
        public var weightsColorByAlpha: Bool
        /// Threads to encode on; nil: one per active processor.
        public var threads: Int?

        /// Options; medium quality, unweighted colour and every processor by default.
        public init(quality: EncoderQuality = .medium, weightsColorByAlpha: Bool = false, threads: Int? = nil) {
            self.quality = quality
            self.weightsColorByAlpha = weightsColorByAlpha
            self.threads = threads
        }
    }

    /// The options every image is encoded with.
    public let options: Options

    /// An encoder with `options`.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// The image's blocks: rows of 4×4 blocks, top row first, each row left to right, 16 bytes
    /// each (`PixelFormat.byteCount(width:height:)` of `PixelFormat.bc7`).
    /// Partial blocks at the right and bottom edges repeat the last column and row.
    public func encode(_ image: RGBAImage) -> [UInt8] {
        let blocksAcross = (image.width + 3) / 4, blocksDown = (image.height + 3) / 4
        let byteCount = blocksAcross * blocksDown * 16
        guard byteCount > 0 else { return [] }
        let settings = BC7SearchSettings(options.quality)
        let weightsColorByAlpha = options.weightsColorByAlpha
        let threads = max(1, min(options.threads ?? ProcessInfo.processInfo.activeProcessorCount, blocksDown))
        return [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
            image.pixels.withUnsafeBufferPointer { source in
                let rows = BlockRows(source: source.baseAddress!, width: image.width, height: image.height, output: output.baseAddress!)
                if threads == 1 {
                    let encoder = BC7BlockEncoder(settings: settings, weightsColorByAlpha: weightsColorByAlpha)
                    for row in 0..<blocksDown { rows.encode(row: row, with: encoder) }
                } else {
                    // Workers take rows of blocks in turn; each row's blocks go to their own bytes.
                    let nextRow = PreloadMutex(0)
                    DispatchQueue.concurrentPerform(iterations: threads) { _ in
                        let encoder = BC7BlockEncoder(settings: settings, weightsColorByAlpha: weightsColorByAlpha)
                        while true {
                            let row = nextRow.withLock { next in
                                defer { next += 1 }
                                return next
                            }
                            guard row < blocksDown else { break }
                            rows.encode(row: row, with: encoder)
                        }
                    }
                }
            }
            initialized = byteCount
        }
    }
}

/// An image's pixels and the memory for its blocks, shared by the threads that encode rows of
/// blocks (each writes only its own rows' bytes).
private struct BlockRows: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let output: UnsafeMutablePointer<UInt8>

    /// Encodes row `row` of blocks, padding partial blocks with the image's last column and row.
    func encode(row: Int, with encoder: BC7BlockEncoder) {
        let blocksAcross = (width + 3) / 4
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            let pixels = block.baseAddress!
            for column in 0..<blocksAcross {
                for y in 0..<4 {
                    let sourceRow = source + min(row * 4 + y, height - 1) * width * 4
                    for x in 0..<4 {
                        let sourcePixel = sourceRow + min(column * 4 + x, width - 1) * 4
                        (pixels + (y * 4 + x) * 4).update(from: sourcePixel, count: 4)
                    }
                }
                encoder.encode(pixels, into: output + (row * blocksAcross + column) * 16)
            }
        }
    }
}
