import CPreloadPNG
import Preload

/// libdeflate, opened at run time (`libdeflate.so.0`, Debian's `libdeflate0`, which a fresh
/// machine ships without its headers): the four functions ``PNGFastPath`` hands its C side.
/// Without it every PNG decodes with libpng.
struct LibDeflate: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    static let location = SystemLibraryLocation("libdeflate", fileNames: ["libdeflate.so.0"], package: "libdeflate0")
    static let shared = opened()

    /// The functions, as the C side takes them.
    let functions: preload_png_deflate_functions

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        functions = preload_png_deflate_functions(
            alloc_decompressor: try library.function("libdeflate_alloc_decompressor"),
            free_decompressor: try library.function("libdeflate_free_decompressor"),
            zlib_decompress_ex: try library.function("libdeflate_zlib_decompress_ex"),
            crc32: try library.function("libdeflate_crc32"))
    }
}
