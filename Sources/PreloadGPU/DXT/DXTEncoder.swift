import Dispatch
import Preload

/// Encodes RGBA8 images into BC1, BC3, BC4 or BC5 blocks (DXT1, DXT5, and the one- and
/// two-channel RGTC formats) with stb_dxt, which PreloadGPU opens at run time from Debian's
/// `libstb0` (`libstb.so.0`): nothing is linked, and a machine without the library throws
/// `MissingSystemLibrary` naming the package. (BC7, the better format for colour with
/// alpha, has an encoder of its own.)
///
/// Every block goes through stb_dxt's high-quality mode. Blocks over the right and bottom edges
/// cover the edge pixels repeated. With `threadCount` N the rows of blocks are shared among N
/// threads; each block depends on its pixels alone, so the bytes do not depend on N.
public struct DXTEncoder: Sendable {
    /// The block formats stb_dxt writes.
    public enum Format: String, Hashable, Sendable, CaseIterable {
        /// BC1, 8 bytes a block: colour only. stb_dxt has no BC1 punch-through (1-bit alpha)
        /// mode, so alpha is dropped and the texture samples opaque: choose BC1 only for
        /// opaque images, BC3 (or BC7) for the rest.
        case bc1
        /// BC3, 16 bytes a block: BC1's colour and an interpolated alpha.
        case bc3
        /// BC4, 8 bytes a block: one channel, from red (a mask, a height map, a grey image).
        case bc4
        /// BC5, 16 bytes a block: two channels, from red and green (a normal map's x and y).
        case bc5

        /// The texture pixel format of this block format.
        public var pixelFormat: PixelFormat {
            switch self {
            case .bc1: .bc1
            case .bc3: .bc3
            case .bc4: .bc4
            case .bc5: .bc5
            }
        }
    }

    /// The block format written.
    public let format: Format
    /// The threads that share each image's rows of blocks.
    public let threadCount: Int
    private let library: STBDXTLibrary

    /// An encoder of `format` blocks on `threadCount` threads.
    /// - Throws: `MissingSystemLibrary` when libstb is not installed.
    public init(format: Format, threadCount: Int = 1) throws(MissingSystemLibrary) {
        try self.init(library: STBDXTLibrary.shared.get(), format: format, threadCount: threadCount)
    }

    init(library: STBDXTLibrary, format: Format, threadCount: Int) {
        precondition(threadCount >= 1, "DXTEncoder: threadCount \(threadCount)")
        self.library = library
        self.format = format
        self.threadCount = threadCount
    }

    /// `image` as blocks: `format.pixelFormat.byteCount(width:height:)` bytes, rows of blocks top
    /// first. An empty image gives no bytes.
    public func encode(_ image: RGBAImage) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { return [] }
        var blocks = [UInt8](repeating: 0, count: format.pixelFormat.byteCount(width: image.width, height: image.height) ?? 0)
        let rows = (image.height + 3) / 4
        image.pixels.withUnsafeBufferPointer { pixels in
            blocks.withUnsafeMutableBufferPointer { blocks in
                let encoding = SharedBlockRows(encoder: self, width: image.width, height: image.height, pixels: pixels, blocks: blocks)
                let threads = min(threadCount, rows)
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    for row in stride(from: thread, to: rows, by: threads) { encoding.encodeRow(row) }
                }
            }
        }
        return blocks
    }

    /// The bytes stb_dxt reads for each pixel: RGBA for BC1 and BC3, red for BC4, red and green for BC5.
    fileprivate var channels: Int {
        switch format {
        case .bc1, .bc3: 4
        case .bc4: 1
        case .bc5: 2
        }
    }

    /// Encodes `block`, 16 pixels of ``channels`` bytes row after row, into `destination`.
    fileprivate func encodeBlock(_ block: UnsafePointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>) {
        switch format {
        case .bc1: library.compressDXTBlock(destination, block, 0, STBDXTLibrary.highQuality)
        case .bc3: library.compressDXTBlock(destination, block, 1, STBDXTLibrary.highQuality)
        case .bc4: library.compressBC4Block(destination, block)
        case .bc5: library.compressBC5Block(destination, block)
        }
    }
}

/// One image's encoding, shared by the threads that run it: each encodes whole rows of blocks
/// and writes only their bytes.
private struct SharedBlockRows: @unchecked Sendable {
    let encoder: DXTEncoder
    let width: Int
    let height: Int
    let pixels: UnsafeBufferPointer<UInt8>
    let blocks: UnsafeMutableBufferPointer<UInt8>

    /// Encodes the row of blocks `row` (pixel rows `4 * row` on), edge pixels repeated past the image.
    func encodeRow(_ row: Int) {
        let columns = (width + 3) / 4
        let blockBytes = encoder.format.pixelFormat.bytesPerBlock
        let channels = encoder.channels
        // BC1 is opaque: stb_dxt reads the alpha bytes even where it stores no alpha.
        let opaque = encoder.format == .bc1
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            for column in 0..<columns {
                for y in 0..<4 {
                    let sourceRow = min(row * 4 + y, height - 1) * width
                    for x in 0..<4 {
                        let source = (sourceRow + min(column * 4 + x, width - 1)) * 4
                        let target = (y * 4 + x) * channels
                        for channel in 0..<channels { block[target + channel] = pixels[source + channel] }
                        if opaque { block[target + 3] = 255 }
                    }
                }
                encoder.encodeBlock(UnsafePointer(block.baseAddress!), into: blocks.baseAddress! + (row * columns + column) * blockBytes)
            }
        }
    }
}
