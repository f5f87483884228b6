import CPreloadASTC
import Preload

/// astcenc, Arm's ASTC encoder, opened at run time (`libastcenc.so.3d`, Debian's `libastcenc3d`,
/// astcenc 4.2.0): the functions ``ASTCEncoder`` and ``ASTCDecoder`` call, resolved once for the
/// process. The types come from `CPreloadASTC`, which declares astcenc 4.2's ABI; without the
/// library the encoder and decoder throw ``MissingSystemLibrary`` naming the package.
///
/// astcenc 4.2 keeps one setting for the whole process: the first compression fixes the
/// refinement limit (`tune_refinement_mse_overshoot`, a function-local `static` in
/// `compress_block`, fixed upstream in 2025 by "Remove incorrect static qualifier", #538) for
/// every context after it, whatever their quality. Left alone, an encoder's blocks would depend
/// on which quality happened to encode first in the process; so opening the library compresses
/// one block at the medium preset first: every quality then uses medium's limit, and medium
/// writes exactly what `astcenc -medium` writes.
struct ASTCLibrary: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    static let shared = opened()
    /// The soname of astcenc 4.x's Debian build (its ABI is what CPreloadASTC declares).
    static let location = SystemLibraryLocation("libastcenc", fileNames: ["libastcenc.so.3d"], package: "libastcenc3d")

    let configInit: PreloadASTCConfigInit
    let contextAlloc: PreloadASTCContextAlloc
    let contextFree: PreloadASTCContextFree
    let compressImage: PreloadASTCCompressImage
    let compressReset: PreloadASTCCompressReset
    let decompressImage: PreloadASTCDecompressImage
    let decompressReset: PreloadASTCDecompressReset
    private let errorString: PreloadASTCGetErrorString

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        configInit = try library.function("astcenc_config_init")
        contextAlloc = try library.function("astcenc_context_alloc")
        contextFree = try library.function("astcenc_context_free")
        compressImage = try library.function("astcenc_compress_image")
        compressReset = try library.function("astcenc_compress_reset")
        decompressImage = try library.function("astcenc_decompress_image")
        decompressReset = try library.function("astcenc_decompress_reset")
        errorString = try library.function("astcenc_get_error_string")
        fixRefinementLimit()
    }

    /// Compresses one 4x4 block of a gradient at the medium preset, the process's first
    /// compression (see above; a block of one colour would end before the limit is read). A failure here (a CPU astcenc refuses) fails every encoder's own calls too, with
    /// the error, so it is not reported here.
    private func fixRefinementLimit() {
        var config = astcenc_config()
        var context: OpaquePointer?
        guard configInit(ASTCENC_PRF_LDR, 4, 4, 1, ASTCENC_PRE_MEDIUM, 0, &config) == ASTCENC_SUCCESS,
            contextAlloc(&config, 1, &context) == ASTCENC_SUCCESS, let context
        else { return }
        defer { contextFree(context) }
        var pixels = (0..<64).map { UInt8($0 * 4) }
        var block = [UInt8](repeating: 0, count: 16)
        var swizzle = astcenc_swizzle.identity
        pixels.withUnsafeMutableBytes { pixels in
            var slice = pixels.baseAddress
            withUnsafeMutablePointer(to: &slice) { slices in
                var image = astcenc_image(dim_x: 4, dim_y: 4, dim_z: 1, data_type: ASTCENC_TYPE_U8, data: slices)
                _ = compressImage(context, &image, &swizzle, &block, block.count, 0)
            }
        }
    }

    /// Throws ``ASTCError/library(function:status:message:)`` unless `status` is success.
    func check(_ status: astcenc_error, _ function: String) throws(ASTCError) {
        guard status != ASTCENC_SUCCESS else { return }
        let message = errorString(status).map { String(cString: $0) } ?? "unknown error"
        throw ASTCError.library(function: function, status: Int(status.rawValue), message: message)
    }
}
