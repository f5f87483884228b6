import Preload

/// stb_dxt, Sean Barrett's and Fabian Giesen's BC1-BC5 block compressor, as Debian's `libstb0`
/// exports it (`libstb.so.0`), opened at run time: the three block functions ``DXTEncoder``
/// calls, resolved once for the process. Without the library ``DXTEncoder`` throws
/// ``MissingSystemLibrary`` naming the package.
struct STBDXTLibrary: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    /// `void stb_compress_dxt_block(unsigned char *dest, const unsigned char *src_rgba_four_bytes_per_pixel, int alpha, int mode)`:
    /// one 4x4 block of RGBA pixels (row after row) into 8 bytes of BC1 (`alpha` 0) or 16 of BC3 (`alpha` 1).
    typealias CompressDXTBlock = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?, Int32, Int32) -> Void
    /// `void stb_compress_bc4_block(unsigned char *dest, const unsigned char *src_r_one_byte_per_pixel)`: 16 values into 8 bytes.
    typealias CompressBC4Block = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?) -> Void
    /// `void stb_compress_bc5_block(unsigned char *dest, const unsigned char *src_rg_two_byte_per_pixel)`: 16 pairs into 16 bytes.
    typealias CompressBC5Block = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?) -> Void

    /// stb_dxt's `STB_DXT_HIGHQUAL` mode: two refinement passes instead of one.
    static let highQuality: Int32 = 2

    /// The library for this process, or why it is missing; opened on first use.
    static let shared = opened()
    static let location = SystemLibraryLocation("libstb", fileNames: ["libstb.so.0"], package: "libstb0")

    let compressDXTBlock: CompressDXTBlock
    let compressBC4Block: CompressBC4Block
    let compressBC5Block: CompressBC5Block

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        compressDXTBlock = try library.function("stb_compress_dxt_block")
        compressBC4Block = try library.function("stb_compress_bc4_block")
        compressBC5Block = try library.function("stb_compress_bc5_block")
    }
}
