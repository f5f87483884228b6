import CPreloadASTC
import Dispatch
import Preload

/// Encodes RGBA8 images into ASTC blocks (2D, LDR) with Arm's astcenc, which PreloadGPU opens at
/// run time (`libastcenc.so.3d`, Debian's `libastcenc3d`): nothing is linked, and a machine
/// without the library throws `MissingSystemLibrary` naming the package.
///
/// One encoder is one configuration; it keeps astcenc's contexts for reuse, so encode every
/// image and mipmap level of a kind with the same encoder (from several threads at once if you
/// like). With `threadCount` N each image is encoded by N threads sharing one context, as
/// astcenc's API intends; the blocks do not depend on N, nor on what other encoders in the
/// process did before (astcenc 4.2 keeps its first compression's refinement limit for the
/// process; PreloadGPU makes that first compression one of its own, at medium).
///
/// ```swift
/// import Preload
/// import PreloadGPU
///
/// let image = RGBAImage(width: 8, height: 8, pixels: [UInt8](repeating: 200, count: 8 * 8 * 4))
/// let encoder = try ASTCEncoder(blockSize: .fourByFour, quality: .medium, colorSpace: .sRGB)
/// let blocks = try encoder.encode(image)  // 16 bytes a 4x4 block, rows of blocks top first
/// print(blocks.count)  // 64
/// ```
public final class ASTCEncoder: Sendable {
    /// The block footprint.
    public let blockSize: ASTCBlockSize
    /// How hard astcenc searches.
    public let quality: EncoderQuality
    /// The profile: `ColorSpace.sRGB` encodes for an `..._SRGB_BLOCK` texture (astcenc's
    /// `ASTCENC_PRF_LDR_SRGB`, whose blocks decode through the sRGB curve), `ColorSpace.linear`
    /// for a `..._UNORM_BLOCK` one (`ASTCENC_PRF_LDR`).
    public let colorSpace: ColorSpace
    /// Whether colour errors count in proportion to alpha (`ASTCENC_FLG_USE_ALPHA_WEIGHT`), for
    /// straight-alpha textures, whose colour under transparent pixels is never seen. astcenc 4.2
    /// scales each block's colour weight by the block's highest alpha: a block with any opaque
    /// pixel encodes as without the flag, a fully transparent one spends nothing on colour. (On
    /// the game-like corpus of astc-bench it changes premultiplied PSNR by under 0.01 dB.)
    public let weightsColorByAlpha: Bool
    /// The threads that encode each image.
    public var threadCount: Int { contexts.threadCount }
    private let contexts: ASTCContextPool

    /// An encoder of `blockSize` blocks at `quality` for `colorSpace`, each image encoded by
    /// `threadCount` threads.
    /// - Throws: `MissingSystemLibrary` when libastcenc is not installed;
    ///   ``ASTCError`` when astcenc refuses the configuration (a CPU without the instructions it
    ///   was built for).
    public convenience init(
        blockSize: ASTCBlockSize = .fourByFour, quality: EncoderQuality = .medium, colorSpace: ColorSpace = .sRGB,
        weightsColorByAlpha: Bool = false, threadCount: Int = 1
    ) throws {
        try self.init(
            library: ASTCLibrary.shared.get(), blockSize: blockSize, quality: quality, colorSpace: colorSpace,
            weightsColorByAlpha: weightsColorByAlpha, threadCount: threadCount)
    }

    init(
        library: ASTCLibrary, blockSize: ASTCBlockSize, quality: EncoderQuality, colorSpace: ColorSpace, weightsColorByAlpha: Bool,
        threadCount: Int
    ) throws(ASTCError) {
        precondition(threadCount >= 1, "ASTCEncoder: threadCount \(threadCount)")
        self.blockSize = blockSize
        self.quality = quality
        self.colorSpace = colorSpace
        self.weightsColorByAlpha = weightsColorByAlpha
        contexts = try ASTCContextPool(
            library: library, blockSize: blockSize, colorSpace: colorSpace, quality: quality,
            flags: weightsColorByAlpha ? ASTCENC_FLG_USE_ALPHA_WEIGHT : 0, threadCount: threadCount)
    }

    /// `image` as ASTC blocks: `blockSize.pixelFormat.byteCount(width:height:)` bytes, rows of
    /// blocks top first; the blocks over the right and bottom edges cover the edge pixels
    /// repeated. An empty image gives no bytes.
    /// - Throws: ``ASTCError/library(function:status:message:)`` when astcenc fails;
    ///   ``ASTCError/invalidSize(width:height:)`` for a side of 2^32 pixels or more.
    public func encode(_ image: RGBAImage) throws(ASTCError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { return [] }
        guard let dimensions = ASTCDimensions(width: image.width, height: image.height) else {
            throw .invalidSize(width: image.width, height: image.height)
        }
        var blocks = [UInt8](repeating: 0, count: blockSize.pixelFormat.byteCount(width: image.width, height: image.height) ?? 0)
        try contexts.withContext { context throws(ASTCError) in
            let statuses = blocks.withUnsafeMutableBytes { output in
                image.pixels.withUnsafeBytes { input in compress(dimensions, input, into: output, with: context) }
            }
            let reset = contexts.library.compressReset(context)
            for status in statuses { try contexts.library.check(status, "astcenc_compress_image") }
            try contexts.library.check(reset, "astcenc_compress_reset")
        }
        return blocks
    }

    /// Runs `astcenc_compress_image` on each of the context's threads; what each returned.
    private func compress(
        _ dimensions: ASTCDimensions, _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, with context: OpaquePointer
    ) -> [astcenc_error] {
        var slice: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(mutating: input.baseAddress)
        var source = astcenc_image(dim_x: dimensions.x, dim_y: dimensions.y, dim_z: 1, data_type: ASTCENC_TYPE_U8, data: nil)
        var swizzle = astcenc_swizzle.identity
        var statuses = [astcenc_error](repeating: ASTCENC_SUCCESS, count: threadCount)
        withUnsafeMutablePointer(to: &slice) { slices in
            source.data = slices
            withUnsafeMutablePointer(to: &source) { source in
                withUnsafePointer(to: &swizzle) { swizzle in
                    statuses.withUnsafeMutableBufferPointer { statuses in
                        let compression = SharedCompression(
                            compressImage: contexts.library.compressImage, context: context, image: source, swizzle: swizzle,
                            blocks: output.bindMemory(to: UInt8.self), statuses: statuses)
                        DispatchQueue.concurrentPerform(iterations: statuses.count) { compression.run(thread: $0) }
                    }
                }
            }
        }
        return statuses
    }
}

/// One image's compression, shared by the threads that run it: astcenc hands each block to one
/// of them, and each writes only its own status.
private struct SharedCompression: @unchecked Sendable {
    let compressImage: PreloadASTCCompressImage
    let context: OpaquePointer
    let image: UnsafeMutablePointer<astcenc_image>
    let swizzle: UnsafePointer<astcenc_swizzle>
    let blocks: UnsafeMutableBufferPointer<UInt8>
    let statuses: UnsafeMutableBufferPointer<astcenc_error>

    /// `astcenc_compress_image` as thread `thread` of the context's.
    func run(thread: Int) {
        statuses[thread] = compressImage(context, image, swizzle, blocks.baseAddress, blocks.count, UInt32(thread))
    }
}

extension astcenc_swizzle {
    /// Red, green, blue and alpha from themselves.
    static let identity = astcenc_swizzle(r: ASTCENC_SWZ_R, g: ASTCENC_SWZ_G, b: ASTCENC_SWZ_B, a: ASTCENC_SWZ_A)
}
