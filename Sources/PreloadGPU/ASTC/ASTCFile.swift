/// An `.astc` file, as Arm's `astcenc` command writes and reads it: a 16-byte header (the magic
/// number 0x5CA1AB13, the block footprint, the image's size in pixels) and then the blocks, 16
/// bytes each, rows of blocks top first. PreloadGPU reads and writes the 2D files of the block
/// sizes it encodes.
public struct ASTCFile: Hashable, Sendable {
    /// The block footprint.
    public var blockSize: ASTCBlockSize
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The blocks: `blockSize.pixelFormat.byteCount(width:height:)` bytes.
    public var blocks: [UInt8]

    /// The header's first four bytes (0x5CA1AB13, little-endian).
    private static let magic: [UInt8] = [0x13, 0xAB, 0xA1, 0x5C]
    /// Bytes before the blocks.
    private static let headerSize = 16

    /// A file of `blocks`, which must be `width` by `height` pixels' worth of `blockSize` blocks.
    public init(blockSize: ASTCBlockSize, width: Int, height: Int, blocks: [UInt8]) {
        precondition(
            width >= 0 && height >= 0 && width < 1 << 24 && height < 1 << 24
                && blocks.count == blockSize.pixelFormat.byteCount(width: width, height: height),
            "ASTCFile: \(blocks.count) bytes of blocks for \(width)x\(height) in \(blockSize.rawValue)")
        self.blockSize = blockSize
        self.width = width
        self.height = height
        self.blocks = blocks
    }

    /// Reads a file's bytes.
    /// - Throws: ``ASTCError/invalidFile(_:)`` for a header that is not an ASTC file's or names a
    ///   3D image or another block size; ``ASTCError/blockDataSize(expected:actual:)`` when the
    ///   blocks after it are not the image's.
    public init(_ bytes: [UInt8]) throws(ASTCError) {
        guard bytes.count >= Self.headerSize, Array(bytes[0..<4]) == Self.magic else {
            throw .invalidFile("no ASTC header (magic 0x5CA1AB13)")
        }
        func size(at offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 }
        guard bytes[6] == 1, size(at: 13) == 1 else { throw .invalidFile("a 3D image (block depth \(bytes[6]), depth \(size(at: 13)))") }
        guard let blockSize = ASTCBlockSize(width: Int(bytes[4]), height: Int(bytes[5])) else {
            throw .invalidFile("block size \(bytes[4])x\(bytes[5]) (4x4, 5x5, 6x6 and 8x8 are read)")
        }
        let width = size(at: 7), height = size(at: 10)
        let expected = blockSize.pixelFormat.byteCount(width: width, height: height) ?? 0
        guard bytes.count - Self.headerSize == expected else { throw .blockDataSize(expected: expected, actual: bytes.count - Self.headerSize) }
        self.init(blockSize: blockSize, width: width, height: height, blocks: Array(bytes[Self.headerSize...]))
    }

    /// The file's bytes: the header, then the blocks.
    public var bytes: [UInt8] {
        func size(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
        return Self.magic + [UInt8(blockSize.width), UInt8(blockSize.height), 1] + size(width) + size(height) + size(1) + blocks
    }
}
