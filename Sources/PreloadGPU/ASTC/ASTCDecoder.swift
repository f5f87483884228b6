import CPreloadASTC
import Preload

/// Decodes ASTC blocks (2D, LDR) into RGBA8 images with Arm's astcenc, opened at run time as
/// ``ASTCEncoder`` opens it: what a GPU shows for a texture, for checking an encoder's output or
/// reading `.astc` files (``ASTCFile``).
///
/// One decoder is one block size and colour space; it keeps astcenc's context for reuse.
public final class ASTCDecoder: Sendable {
    /// The block footprint of the data it decodes.
    public let blockSize: ASTCBlockSize
    /// The profile the blocks decode in: `ColorSpace.sRGB` for an `..._SRGB_BLOCK`
    /// texture, `ColorSpace.linear` for an `..._UNORM_BLOCK` one (what astcenc's
    /// `-dl` decodes).
    public let colorSpace: ColorSpace
    private let contexts: ASTCContextPool

    /// A decoder of `blockSize` blocks in `colorSpace`'s profile.
    /// - Throws: `MissingSystemLibrary` when libastcenc is not installed;
    ///   ``ASTCError`` when astcenc refuses the configuration.
    public convenience init(blockSize: ASTCBlockSize = .fourByFour, colorSpace: ColorSpace = .sRGB) throws {
        try self.init(library: ASTCLibrary.shared.get(), blockSize: blockSize, colorSpace: colorSpace)
    }

    init(library: ASTCLibrary, blockSize: ASTCBlockSize, colorSpace: ColorSpace) throws(ASTCError) {
        self.blockSize = blockSize
        self.colorSpace = colorSpace
        contexts = try ASTCContextPool(
            library: library, blockSize: blockSize, colorSpace: colorSpace, quality: .medium, flags: ASTCENC_FLG_DECOMPRESS_ONLY,
            threadCount: 1)
    }

    /// The `width` by `height` image that `blocks` (rows of 16-byte blocks, top first) encode.
    /// - Throws: ``ASTCError/invalidSize(width:height:)`` for a size astcenc cannot take;
    ///   ``ASTCError/blockDataSize(expected:actual:)`` when `blocks` is not exactly the image's blocks; ``ASTCError/library(function:status:message:)`` when astcenc fails.
    public func decode(_ blocks: [UInt8], width: Int, height: Int) throws(ASTCError) -> RGBAImage {
        guard let dimensions = ASTCDimensions(width: width, height: height),
            let expected = blockSize.pixelFormat.byteCount(width: width, height: height)
        else { throw .invalidSize(width: width, height: height) }
        guard blocks.count == expected else { throw .blockDataSize(expected: expected, actual: blocks.count) }
        guard width > 0, height > 0 else { return RGBAImage(width: width, height: height, pixels: []) }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        try contexts.withContext { context throws(ASTCError) in
            let status = pixels.withUnsafeMutableBytes { output in
                var slice = output.baseAddress
                return withUnsafeMutablePointer(to: &slice) { slices in
                    var image = astcenc_image(dim_x: dimensions.x, dim_y: dimensions.y, dim_z: 1, data_type: ASTCENC_TYPE_U8, data: slices)
                    var swizzle = astcenc_swizzle.identity
                    return contexts.library.decompressImage(context, blocks, blocks.count, &image, &swizzle, 0)
                }
            }
            let reset = contexts.library.decompressReset(context)
            try contexts.library.check(status, "astcenc_decompress_image")
            try contexts.library.check(reset, "astcenc_decompress_reset")
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
