import Preload

/// libdeflate, opened at run time (`libdeflate.so.0`, Debian's `libdeflate0`, which a fresh
/// machine ships without its headers): the package's one loader of it. ``Zlib/decompress(_:into:)``
/// inflates through it, and the PNG plugin hands its functions to its C fast path. Without it,
/// ``Zlib/decompress(_:into:)`` inflates with the system zlib and the PNG plugin decodes with
/// libpng.
///
/// ```swift
/// import Preload
/// import PreloadZlib
///
/// if let deflate = try? LibDeflate.get(), let decompressor = deflate.allocDecompressor() {
///     deflate.freeDecompressor(decompressor)
/// }
/// print(LibDeflate.isAvailable)
/// ```
public struct LibDeflate: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    /// `libdeflate_alloc_decompressor`: a decompressor (about 10 KB), or nil when memory ran out.
    public typealias AllocDecompressor = @convention(c) () -> UnsafeMutableRawPointer?
    /// `libdeflate_free_decompressor`.
    public typealias FreeDecompressor = @convention(c) (UnsafeMutableRawPointer?) -> Void
    /// `libdeflate_zlib_decompress_ex(decompressor, in, in_size, out, out_available, actual_in,
    /// actual_out)`: 0 success, 1 bad data, 2 short output (only without `actual_out`), 3 the
    /// output does not fit in `out_available` bytes.
    public typealias ZlibDecompress =
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<Int>?,
            UnsafeMutablePointer<Int>?
        ) -> Int32
    /// `libdeflate_crc32(crc, bytes, size)`: the CRC-32 of `size` bytes continuing from `crc`.
    public typealias CRC32 = @convention(c) (UInt32, UnsafeRawPointer?, Int) -> UInt32

    /// Where libdeflate is found.
    public static let location = SystemLibraryLocation("libdeflate", fileNames: ["libdeflate.so.0"], package: "libdeflate0")
    /// The binding for this process (opened on first use).
    public static let shared = opened()

    /// `libdeflate_alloc_decompressor`.
    public let allocDecompressor: AllocDecompressor
    /// `libdeflate_free_decompressor`.
    public let freeDecompressor: FreeDecompressor
    /// `libdeflate_zlib_decompress_ex`.
    public let zlibDecompress: ZlibDecompress
    /// `libdeflate_crc32`.
    public let crc32: CRC32

    /// Resolves the four functions in `library`.
    /// - Throws: `MissingSystemLibrary` (Preload's) when one is missing.
    public init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        allocDecompressor = try library.function("libdeflate_alloc_decompressor")
        freeDecompressor = try library.function("libdeflate_free_decompressor")
        zlibDecompress = try library.function("libdeflate_zlib_decompress_ex")
        crc32 = try library.function("libdeflate_crc32")
    }
}
