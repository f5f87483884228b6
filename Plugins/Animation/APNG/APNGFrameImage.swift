import Preload
import PreloadPNG
import PreloadZlib

/// A frame's pixels: its image data made into a still PNG (the signature, IHDR with the frame's
/// size and the file's other header fields, `PLTE` and `tRNS`, the data as one `IDAT`, `IEND`)
/// decoded by the PNG plugin's public decoder, so every colour type, bit depth and interlacing
/// decodes as a `.png` does, with libpng's checks and bounds (a frame's data that inflates past
/// its rows is not inflated further: a zlib bomb costs no memory).
enum APNGFrameImage {
    /// Frame `index` of `document` (in `file`) as RGBA8 pixels, straight alpha, and the warnings
    /// its decode gave, each naming the frame.
    /// - Throws: ``APNGError`` naming the frame, or the PNG plugin's `ImageLimitExceeded`.
    static func pixels(
        of frame: APNGDocument.Frame, index: Int, in document: APNGDocument, file: [UInt8], limits: ImageLimits, memory: AssetMemory
    ) throws -> (pixels: [UInt8], warnings: [AssetWarning]) {
        let still = stillPNG(of: frame, in: document, file: file)
        var warnings: [AssetWarning] = []
        let name = "frame \(index) (fcTL sequence \(frame.control.sequence))"
        do {
            let texture = try PNGDecoder.decode(
                still, options: PNGLoaderSettings(limits: limits), memory: memory,
                warn: { warnings.append(AssetWarning($0.code, "\(name): \($0.message)")) })
            return (texture.pixels.array, warnings)
        } catch let error as PNGDecodeError {
            let detail = "\(name)'s image data: \(error)"
            if case .truncated = error { throw APNGError.truncated(detail: detail) }
            throw APNGError.malformed(detail: detail)
        }
    }

    /// The still PNG of `frame`: the bytes a plain PNG reader decodes to the frame's pixels.
    static func stillPNG(of frame: APNGDocument.Frame, in document: APNGDocument, file: [UInt8]) -> [UInt8] {
        let dataCount = frame.data.reduce(0) { $0 + $1.count }
        var png = PNGDecoder.signature
        png.reserveCapacity(png.count + 25 + document.sharedChunks.reduce(0) { $0 + $1.data.count + 12 } + dataCount + 24)
        var header = document.header
        header.replaceSubrange(0..<8, with: bigEndian(frame.control.width) + bigEndian(frame.control.height))
        append(PNGChunk.IHDR, header[...], to: &png)
        for chunk in document.sharedChunks { append(chunk.type, file[chunk.data], to: &png) }
        var data = [UInt8]()
        data.reserveCapacity(dataCount)
        for range in frame.data { data += file[range] }
        append(PNGChunk.IDAT, data[...], to: &png)
        append(PNGChunk.IEND, [][...], to: &png)
        return png
    }

    /// Appends a chunk of `type` holding `data`, with its CRC, to `png`.
    private static func append(_ type: UInt32, _ data: ArraySlice<UInt8>, to png: inout [UInt8]) {
        let start = png.count + 4
        png += bigEndian(data.count)
        png += bigEndian(Int(type))
        png += data
        let crc = png.withUnsafeBytes { Zlib.crc32(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        png += bigEndian(Int(crc))
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }
}
