/// libzstd, opened at run time (`libzstd.so.1`, Debian's `libzstd1`, on every Debian system),
/// shared by the package's modules that meet Zstandard data: Tiled layers (PreloadTileMap) and
/// KTX2 levels (PreloadGPU). Its few functions are declared here with their C types, so the
/// package needs no zstd headers; without the library only zstd data fails, with
/// ``MissingSystemLibrary`` naming the package. Public, so that any plugin meeting zstd data
/// (a third party's as much as the package's own) decompresses it through this one binding:
/// `try ZstdLibrary.get().decompress(input, into: output)`.
public struct ZstdLibrary: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    /// `size_t ZSTD_decompress(void *dst, size_t dstCapacity, const void *src, size_t srcSize)`.
    private typealias Decompress = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int) -> Int
    /// `size_t ZSTD_compress(void *dst, size_t dstCapacity, const void *src, size_t srcSize, int level)`.
    private typealias Compress = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int, Int32) -> Int
    /// `size_t ZSTD_compressBound(size_t srcSize)`.
    typealias CompressBound = @convention(c) (Int) -> Int
    /// `unsigned ZSTD_isError(size_t code)`.
    typealias IsError = @convention(c) (Int) -> UInt32
    /// `const char *ZSTD_getErrorName(size_t code)`.
    private typealias ErrorName = @convention(c) (Int) -> UnsafePointer<CChar>?

    /// The library for this process, or why it is missing; opened on first use.
    public static let shared = opened()
    /// `libzstd.so.1` (Debian's `libzstd1`, on every Debian system); Homebrew's `zstd` on macOS.
    public static let location = SystemLibraryLocation(
        "libzstd", soname: "libzstd.so.1", debian: "libzstd1", dylib: "libzstd.1.dylib", homebrew: "zstd")

    private let decompressFunction: Decompress
    private let compressFunction: Compress
    let compressBound: CompressBound
    let isError: IsError
    private let errorName: ErrorName
    /// The functions that compress against a reference (zstd 1.4.0 and later); `nil` in an
    /// older libzstd, where only ``compress(_:against:level:)`` and its twin fail.
    let referencing: ZstdReferencing?

    /// Resolves zstd's five functions in `library` (and, when it has them, those that compress
    /// against a reference).
    /// - Throws: ``MissingSystemLibrary`` when one of the five is missing.
    public init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        decompressFunction = try library.function("ZSTD_decompress")
        compressFunction = try library.function("ZSTD_compress")
        compressBound = try library.function("ZSTD_compressBound")
        isError = try library.function("ZSTD_isError")
        errorName = try library.function("ZSTD_getErrorName")
        referencing = try? ZstdReferencing(resolving: library)
    }

    /// `input` (one or more zstd frames) decompressed into `output`; returns the bytes written.
    /// Give `output` one byte more than expected to notice data that decompresses to more: it
    /// then fills `output` and returns its count, or fails with ``ZstdFailure/isDestinationTooSmall``.
    public func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(ZstdFailure) -> Int {
        let result = decompressFunction(output.baseAddress, output.count, input.baseAddress, input.count)
        if isError(result) != 0 { throw failure(result) }
        return result
    }

    /// `input` compressed into one zstd frame at `level` (1 fastest ... 19, up to 22 with more
    /// memory; zstd clamps others).
    public func compress(_ input: UnsafeRawBufferPointer, level: Int32) throws(ZstdFailure) -> [UInt8] {
        let bound = compressBound(input.count)
        if isError(bound) != 0 { throw failure(bound) }
        var result = 0
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            result = compressFunction(buffer.baseAddress, bound, input.baseAddress, input.count, level)
            count = isError(result) != 0 ? 0 : result
        }
        if isError(result) != 0 { throw failure(result) }
        return output
    }

    func failure(_ code: Int) -> ZstdFailure {
        ZstdFailure(code: 0 &- code, name: errorName(code).map { String(cString: $0) } ?? "error \(0 &- code)")
    }
}

/// What libzstd said when it refused: its error code and name.
public struct ZstdFailure: Error, Equatable, CustomStringConvertible {
    /// zstd's error code (`ZSTD_ErrorCode`, stable since zstd 1.3.1).
    public let code: Int
    /// `ZSTD_getErrorName`'s words.
    public let name: String

    /// zstd's error code for a destination buffer too small (`ZSTD_error_dstSize_tooSmall`).
    private static let destinationTooSmall = 70

    /// The data decompresses to more than the buffer given.
    public var isDestinationTooSmall: Bool { code == Self.destinationTooSmall }

    public var description: String { "zstd: \(name)" }
}
