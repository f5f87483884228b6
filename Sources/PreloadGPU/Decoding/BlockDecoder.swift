import Preload

/// Decodes BC1, BC3, BC4, BC5 and BC7 blocks to RGBA8 the way an OpenGL driver samples them:
/// BC1 with its three-colour mode's transparent black, BC4 as (red, 0, 0, 255), BC5 as
/// (red, green, 0, 255), BC7 in all eight modes with the specification's weights and rounding.
/// For checking encoders (PSNR of a round trip) and for tests; games upload the blocks as they are.
public enum BlockDecoder {
    /// The image the blocks (rows of blocks, top first, `format.bytesPerBlock` bytes each) hold;
    /// pixels of partial blocks past the right or bottom edge are dropped.
    public static func decode(_ blocks: [UInt8], format: PixelFormat, width: Int, height: Int) throws(BlockDecodingError) -> RGBAImage {
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out in a `Result`.
        try blocks.withUnsafeBytes { raw in
            Result { () throws(BlockDecodingError) -> RGBAImage in try decode(raw, format: format, width: width, height: height) }
        }.get()
    }

    /// ``decode(_:format:width:height:)-([UInt8],_,_,_)`` on blocks in memory.
    public static func decode(
        _ blocks: UnsafeRawBufferPointer, format: PixelFormat, width: Int, height: Int
    ) throws(BlockDecodingError) -> RGBAImage {
        let decodeBlock: (UnsafeRawPointer, UnsafeMutablePointer<UInt8>) -> Void
        switch format {
        case .bc1: decodeBlock = { block, pixels in S3TCBlockDecoder.decodeColor(block, into: pixels, hasTransparency: true) }
        case .bc3:
            decodeBlock = { block, pixels in
                S3TCBlockDecoder.decodeChannel(block, into: pixels + 3)
                S3TCBlockDecoder.decodeColor(block + 8, into: pixels, hasTransparency: false)
            }
        case .bc4:
            decodeBlock = { block, pixels in
                pixels.update(repeating: 0, count: 64)
                for pixel in 0..<16 { pixels[pixel * 4 + 3] = 255 }
                S3TCBlockDecoder.decodeChannel(block, into: pixels)
            }
        case .bc5:
            decodeBlock = { block, pixels in
                pixels.update(repeating: 0, count: 64)
                for pixel in 0..<16 { pixels[pixel * 4 + 3] = 255 }
                S3TCBlockDecoder.decodeChannel(block, into: pixels)
                S3TCBlockDecoder.decodeChannel(block + 8, into: pixels + 1)
            }
        case .bc7: decodeBlock = { block, pixels in BC7BlockDecoder.decode(block, into: pixels) }
        case .rgba8, .rgba16, .astc4x4, .astc5x5, .astc6x6, .astc8x8: throw .notBCFormat(format)
        }
        guard width >= 0, height >= 0, let expected = format.byteCount(width: width, height: height),
            width.multipliedReportingOverflow(by: height * 4).overflow == false
        else { throw .invalidSize(width: width, height: height) }
        guard blocks.count == expected else { throw .byteCountMismatch(expected: expected, actual: blocks.count) }

        let blocksAcross = (width + 3) / 4, blocksDown = (height + 3) / 4
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { output in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { decoded in
                let block = decoded.baseAddress!
                for blockY in 0..<blocksDown {
                    for blockX in 0..<blocksAcross {
                        decodeBlock(blocks.baseAddress! + (blockY * blocksAcross + blockX) * format.bytesPerBlock, block)
                        let rows = min(4, height - blockY * 4), columns = min(4, width - blockX * 4)
                        for row in 0..<rows {
                            let target = output.baseAddress! + ((blockY * 4 + row) * width + blockX * 4) * 4
                            target.update(from: block + row * 16, count: columns * 4)
                        }
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
