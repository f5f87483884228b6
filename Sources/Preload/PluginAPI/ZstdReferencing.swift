/// zstd's functions that compress against a reference, the way `zstd --patch-from=OLD NEW`
/// does (the old bytes are a prefix the new ones refer back to: a delta), and decompress such a
/// frame given the same reference. Resolved with ``ZstdLibrary`` when the library has them
/// (zstd 1.4.0 and later); used through ``ZstdLibrary/compress(_:against:level:)`` and
/// ``ZstdLibrary/decompress(_:against:into:)``.
struct ZstdReferencing: @unchecked Sendable {  // C function pointers, immutable once resolved
    /// `ZSTD_CCtx *ZSTD_createCCtx(void)`, `ZSTD_DCtx *ZSTD_createDCtx(void)`.
    typealias Create = @convention(c) () -> OpaquePointer?
    /// `size_t ZSTD_freeCCtx(ZSTD_CCtx *)`, `size_t ZSTD_freeDCtx(ZSTD_DCtx *)`.
    typealias Free = @convention(c) (OpaquePointer?) -> Int
    /// `size_t ZSTD_CCtx_setParameter(ZSTD_CCtx *, ZSTD_cParameter, int)`, and the `DCtx` twin.
    typealias SetParameter = @convention(c) (OpaquePointer?, Int32, Int32) -> Int
    /// `size_t ZSTD_CCtx_refPrefix(ZSTD_CCtx *, const void *prefix, size_t prefixSize)`, and the
    /// `DCtx` twin.
    typealias ReferencePrefix = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int
    /// `size_t ZSTD_compress2(ZSTD_CCtx *, void *dst, size_t dstCapacity, const void *src,
    /// size_t srcSize)`, and `ZSTD_decompressDCtx` (the same shape).
    typealias Run = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int) -> Int

    /// `ZSTD_c_compressionLevel` (zstd.h's `ZSTD_cParameter`, stable since 1.4.0).
    static let compressionLevel: Int32 = 100
    /// `ZSTD_c_windowLog`.
    static let windowLog: Int32 = 101
    /// `ZSTD_c_enableLongDistanceMatching`.
    static let longDistanceMatching: Int32 = 160
    /// `ZSTD_c_checksumFlag`: the frame ends with a checksum of its content, so that a frame
    /// decompressed against another reference than its own fails rather than gives other bytes.
    static let checksumFlag: Int32 = 201
    /// `ZSTD_d_windowLogMax` (zstd.h's `ZSTD_dParameter`).
    static let windowLogMax: Int32 = 100
    /// `ZSTD_WINDOWLOG_MAX_64`: the widest window (2 GiB; 1 GiB on a 32-bit system).
    static let widestWindowLog: Int32 = MemoryLayout<Int>.size == 8 ? 31 : 30
    /// `ZSTD_WINDOWLOG_MIN`.
    static let narrowestWindowLog: Int32 = 10
    /// `ZSTD_error_parameter_outOfBound`: the reference and the input do not fit the widest window.
    static let outOfBound = 42
    /// `ZSTD_error_version_unsupported`: this libzstd cannot compress against a reference.
    static let unsupported = 12

    let createCompression: Create
    let freeCompression: Free
    let setCompressionParameter: SetParameter
    let compressionPrefix: ReferencePrefix
    let compress: Run
    let createDecompression: Create
    let freeDecompression: Free
    let setDecompressionParameter: SetParameter
    let decompressionPrefix: ReferencePrefix
    let decompress: Run

    /// Resolves the ten functions in `library`.
    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        createCompression = try library.function("ZSTD_createCCtx")
        freeCompression = try library.function("ZSTD_freeCCtx")
        setCompressionParameter = try library.function("ZSTD_CCtx_setParameter")
        compressionPrefix = try library.function("ZSTD_CCtx_refPrefix")
        compress = try library.function("ZSTD_compress2")
        createDecompression = try library.function("ZSTD_createDCtx")
        freeDecompression = try library.function("ZSTD_freeDCtx")
        setDecompressionParameter = try library.function("ZSTD_DCtx_setParameter")
        decompressionPrefix = try library.function("ZSTD_DCtx_refPrefix")
        decompress = try library.function("ZSTD_decompressDCtx")
    }

    /// The window a frame of `count` bytes against a reference of `reference` bytes needs: both
    /// must fit in it. `nil` when they do not fit the widest.
    static func windowLog(reference: Int, count: Int) -> Int32? {
        let span = UInt64(reference) + UInt64(count)
        guard span <= UInt64(1) << UInt64(widestWindowLog) else { return nil }
        let bits = Int32(UInt64.bitWidth - max(span, 1).leadingZeroBitCount)  // 2^bits > span
        return min(max(bits, narrowestWindowLog), widestWindowLog)
    }
}

extension ZstdLibrary {
    /// `input` compressed into one zstd frame against `reference` (zstd's `--patch-from`): the
    /// frame refers back to `reference`'s bytes wherever `input` repeats them, so a new version
    /// of a file compressed against its old version is a delta, often a small fraction of it.
    /// The window spans the reference and the input (long-distance matching on, as `zstd
    /// --patch-from` does) and the frame ends with a content checksum. Decompress it with
    /// ``decompress(_:against:into:)`` and the same reference.
    /// - Throws: ``ZstdFailure`` when libzstd refuses, when this libzstd is older than 1.4.0,
    ///   or when the reference and the input together exceed 2 GiB.
    public func compress(_ input: UnsafeRawBufferPointer, against reference: UnsafeRawBufferPointer, level: Int32) throws(ZstdFailure) -> [UInt8] {
        let zstd = try referencingFunctions()
        guard let windowLog = ZstdReferencing.windowLog(reference: reference.count, count: input.count) else {
            throw ZstdFailure(code: ZstdReferencing.outOfBound, name: "the reference and the input exceed zstd's widest window")
        }
        guard let context = zstd.createCompression() else { throw ZstdFailure(code: 64, name: "Allocation error : not enough memory") }
        defer { _ = zstd.freeCompression(context) }
        for (parameter, value) in [
            (ZstdReferencing.compressionLevel, level), (ZstdReferencing.windowLog, windowLog), (ZstdReferencing.longDistanceMatching, 1),
            (ZstdReferencing.checksumFlag, 1),
        ] {
            try check(zstd.setCompressionParameter(context, parameter, value))
        }
        try check(zstd.compressionPrefix(context, reference.baseAddress, reference.count))
        let bound = compressBound(input.count)
        try check(bound)
        var result = 0
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            result = zstd.compress(context, buffer.baseAddress, bound, input.baseAddress, input.count)
            count = isError(result) != 0 ? 0 : result
        }
        try check(result)
        return output
    }

    /// `input`, a frame ``compress(_:against:level:)`` made against `reference`, decompressed
    /// against it into `output`; returns the bytes written. A frame made against other bytes
    /// fails its content checksum, and damaged input fails as it is read: both are a
    /// ``ZstdFailure``, never a trap.
    /// - Throws: ``ZstdFailure`` (``ZstdFailure/isDestinationTooSmall`` when the frame holds
    ///   more than `output`).
    public func decompress(
        _ input: UnsafeRawBufferPointer, against reference: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(ZstdFailure) -> Int {
        let zstd = try referencingFunctions()
        guard let context = zstd.createDecompression() else { throw ZstdFailure(code: 64, name: "Allocation error : not enough memory") }
        defer { _ = zstd.freeDecompression(context) }
        try check(zstd.setDecompressionParameter(context, ZstdReferencing.windowLogMax, ZstdReferencing.widestWindowLog))
        try check(zstd.decompressionPrefix(context, reference.baseAddress, reference.count))
        let result = zstd.decompress(context, output.baseAddress, output.count, input.baseAddress, input.count)
        try check(result)
        return result
    }

    private func referencingFunctions() throws(ZstdFailure) -> ZstdReferencing {
        guard let referencing else {
            throw ZstdFailure(code: ZstdReferencing.unsupported, name: "this libzstd cannot compress against a reference (zstd 1.4.0 or later can)")
        }
        return referencing
    }

    private func check(_ result: Int) throws(ZstdFailure) {
        if isError(result) != 0 { throw failure(result) }
    }
}
