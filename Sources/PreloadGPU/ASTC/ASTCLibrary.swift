import CPreloadASTC
import Preload

/// astcenc, Arm's ASTC encoder, opened at run time (`libastcenc.so.3d`, Debian's `libastcenc3d`,
/// astcenc 4.2.0): the functions ``ASTCEncoder`` and ``ASTCDecoder`` call, resolved once for the
/// process. The types come from `CPreloadASTC`, which declares astcenc 4.2's ABI; without the
/// library the encoder and decoder throw ``MissingSystemLibrary`` naming the package.
struct ASTCLibrary: @unchecked Sendable {  // C function pointers, immutable once resolved
    /// The library for this process, or why it is missing; opened on first use.
    static let shared = Result { () throws(MissingSystemLibrary) in try ASTCLibrary() }

    /// The files tried: the soname of astcenc 4.x's Debian build (its ABI is what CPreloadASTC declares).
    static let fileNames = ["libastcenc.so.3d"]

    let configInit: PreloadASTCConfigInit
    let contextAlloc: PreloadASTCContextAlloc
    let contextFree: PreloadASTCContextFree
    let compressImage: PreloadASTCCompressImage
    let compressReset: PreloadASTCCompressReset
    let decompressImage: PreloadASTCDecompressImage
    let decompressReset: PreloadASTCDecompressReset
    private let errorString: PreloadASTCGetErrorString

    /// Opens the first of `fileNames` found (a test names a file that does not exist).
    init(fileNames: [String] = ASTCLibrary.fileNames) throws(MissingSystemLibrary) {
        let library = try SystemLibrary.open("libastcenc", fileNames: fileNames, package: "libastcenc3d")
        configInit = try library.function("astcenc_config_init", as: PreloadASTCConfigInit.self)
        contextAlloc = try library.function("astcenc_context_alloc", as: PreloadASTCContextAlloc.self)
        contextFree = try library.function("astcenc_context_free", as: PreloadASTCContextFree.self)
        compressImage = try library.function("astcenc_compress_image", as: PreloadASTCCompressImage.self)
        compressReset = try library.function("astcenc_compress_reset", as: PreloadASTCCompressReset.self)
        decompressImage = try library.function("astcenc_decompress_image", as: PreloadASTCDecompressImage.self)
        decompressReset = try library.function("astcenc_decompress_reset", as: PreloadASTCDecompressReset.self)
        errorString = try library.function("astcenc_get_error_string", as: PreloadASTCGetErrorString.self)
    }

    /// Throws ``ASTCError/library(function:status:message:)`` unless `status` is success.
    func check(_ status: astcenc_error, _ function: String) throws(ASTCError) {
        guard status != ASTCENC_SUCCESS else { return }
        let message = errorString(status).map { String(cString: $0) } ?? "unknown error"
        throw ASTCError.library(function: function, status: Int(status.rawValue), message: message)
    }
}
