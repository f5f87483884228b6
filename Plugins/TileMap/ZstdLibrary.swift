import Preload

/// libzstd, opened at run time (`libzstd.so.1`, Debian's `libzstd1`, on every Debian system):
/// layer data Tiled compressed with Zstandard decompresses through it. Three functions, declared
/// here with their C types, so the package needs no zstd headers; without the library only
/// zstd-compressed layers fail, with ``MissingSystemLibrary`` naming the package.
struct ZstdLibrary: @unchecked Sendable {  // C function pointers, immutable once resolved
    /// `size_t ZSTD_decompress(void *dst, size_t dstCapacity, const void *src, size_t srcSize)`.
    typealias Decompress = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int) -> Int
    /// `unsigned ZSTD_isError(size_t code)`.
    typealias IsError = @convention(c) (Int) -> UInt32
    /// `const char *ZSTD_getErrorName(size_t code)`.
    typealias ErrorName = @convention(c) (Int) -> UnsafePointer<CChar>?

    /// The library for this process, or why it is missing; opened on first use.
    static let shared = Result { () throws(MissingSystemLibrary) in try ZstdLibrary() }

    /// zstd's error code for a destination buffer too small (`ZSTD_error_dstSize_tooSmall`;
    /// error codes are stable since zstd 1.3.1): the data decompresses to more than it may.
    private static let destinationTooSmall = 70

    private let decompress: Decompress
    private let isError: IsError
    private let errorName: ErrorName

    private init() throws(MissingSystemLibrary) {
        #if canImport(Darwin)
            let library = try SystemLibrary.open(
                "libzstd", fileNames: ["libzstd.1.dylib", "/opt/homebrew/lib/libzstd.1.dylib", "/usr/local/lib/libzstd.1.dylib"], package: "zstd")
        #else
            let library = try SystemLibrary.open("libzstd", fileNames: ["libzstd.so.1"], package: "libzstd1")
        #endif
        decompress = try library.function("ZSTD_decompress", as: Decompress.self)
        isError = try library.function("ZSTD_isError", as: IsError.self)
        errorName = try library.function("ZSTD_getErrorName", as: ErrorName.self)
    }

    /// `input` (one or more zstd frames) decompressed into `output`, which must receive exactly
    /// `output.count - 1` bytes: a stream that decompresses to more stops at its end.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(LayerDataProblem) {
        let expected = output.count - 1
        let result = decompress(output.baseAddress, output.count, input.baseAddress, input.count)
        if isError(result) != 0 {
            if 0 &- result == Self.destinationTooSmall {
                throw LayerDataProblem("zstd data decompresses to more than the layer's \(expected) bytes")
            }
            throw LayerDataProblem("zstd: \(errorName(result).map { String(cString: $0) } ?? "error \(0 &- result)")")
        }
        guard result == expected else {
            let size = result > expected ? "more than" : "\(result) bytes, not"
            throw LayerDataProblem("zstd data decompresses to \(size) the layer's \(expected) bytes")
        }
    }
}
