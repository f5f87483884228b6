import CPreloadPNG
import Preload
import PreloadZlib

/// The PNG plugin's fast path: the PNGs games ship (8-bit grey, grey+alpha, RGB, RGBA and
/// palette images, not interlaced) decoded about twice as fast as libpng, with the same pixels,
/// warnings and errors.
///
/// One walk over the file checks every chunk's CRC and every chunk libpng would judge; the image
/// data is inflated in one call of libdeflate straight into the texture's memory, then unfiltered
/// (with SSE2 where the CPU has it) and expanded to RGBA8 in place, a band of rows at a time
/// between cancellation checks. Whatever the walk cannot prove libpng reads without a word (a
/// damaged file, 16-bit or sub-byte samples, interlacing, an ICC profile, a compressed text
/// chunk) goes to libpng, as does a file whose image data turns out not to inflate exactly:
/// declining costs the walk and nothing else.
///
/// libdeflate is opened at run time (Debian's `libdeflate0`, which a fresh machine ships) by
/// PreloadZlib's `LibDeflate`, the package's one loader of it: where it is missing, every PNG
/// decodes with libpng.
///
/// ```swift
/// import PreloadPNG
///
/// let file: [UInt8] = [0x89, 0x50, 0x4E, 0x47]  // a PNG's bytes, cut short here
/// let reason = file.withUnsafeBufferPointer { PNGFastPath.declineReason(for: $0) }
/// print(reason ?? "the fast path decodes it")
/// ```
public enum PNGFastPath {
    /// libdeflate's functions for the C side, allocated once and never freed (the C side keeps a
    /// decompressor per thread that refers to them); nil without libdeflate.
    nonisolated(unsafe) static let functions: UnsafePointer<preload_png_deflate_functions>? = {
        guard let library = try? LibDeflate.get() else { return nil }
        let functions = UnsafeMutablePointer<preload_png_deflate_functions>.allocate(capacity: 1)
        functions.initialize(
            to: preload_png_deflate_functions(
                alloc_decompressor: library.allocDecompressor, free_decompressor: library.freeDecompressor,
                zlib_decompress_ex: library.zlibDecompress, crc32: library.crc32))
        return UnsafePointer(functions)
    }()

    /// Whether libdeflate was found, so that the fast path can run at all.
    public static var isAvailable: Bool { functions != nil }

    /// Why the fast path leaves `file` (a whole PNG file) to libpng, or `nil` when its chunks are
    /// ones it decodes. (A file it takes can still go to libpng if its image data does not
    /// inflate to exactly its rows, which only a damaged file does.)
    public static func declineReason(for file: UnsafeBufferPointer<UInt8>) -> String? {
        switch plan(file) {
        case .success(let (fast, _)):
            preload_png_fast_destroy(fast)
            return nil
        case .failure(let declined): return declined.reason
        }
    }

    /// The fast path's plan of decoding `file` and the header it read, or why it declines.
    static func plan(_ file: UnsafeBufferPointer<UInt8>) -> Result<(OpaquePointer, preload_png_info), PNGFastPathDeclined> {
        guard let functions else { return .failure(PNGFastPathDeclined(reason: "libdeflate is not installed")) }
        var info = preload_png_info()
        var reason: UnsafePointer<CChar>?
        guard let fast = preload_png_fast_create(file.baseAddress, file.count, functions, &info, &reason) else {
            return .failure(PNGFastPathDeclined(reason: reason.map { String(cString: $0) } ?? "declined"))
        }
        return .success((fast, info))
    }
}
