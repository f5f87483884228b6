import CPreloadZlib
import PreloadConcurrency

extension Zlib {
    /// Inflates the one zlib stream (RFC 1950) at the start of `input` into `output`, whose size
    /// is the most the stream may inflate to (a picture's known size): in one call of libdeflate
    /// where the system has it (``LibDeflate``), through an ``Inflater`` otherwise. The stream's
    /// Adler-32 is checked; bytes after its end are left alone. Nothing is written past `output`,
    /// so a zlib bomb costs no memory. Safe to call from any number of threads at once (each call
    /// borrows a decompressor from a small pool).
    ///
    /// ```swift
    /// import PreloadZlib
    ///
    /// let packed = try Zlib.compress(Array(repeating: 7, count: 64), level: 9)
    /// var pixels = [UInt8](repeating: 0, count: 64)
    /// let produced = try packed.withUnsafeBytes { input in
    ///     try pixels.withUnsafeMutableBytes { try Zlib.decompress(input, into: $0) }
    /// }
    /// print(produced == pixels.count)  // a stream that inflates to fewer bytes ends early
    /// ```
    ///
    /// - Returns: the bytes the stream inflated to: `output.count`, or fewer when it ends sooner.
    /// - Throws: ``ZlibError``: damaged data (`Z_DATA_ERROR`; libdeflate reports data cut short
    ///   the same way, zlib as `Z_BUF_ERROR`), or a stream that inflates past `output.count`
    ///   bytes (``ZlibError/outputFull``).
    public static func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(ZlibError) -> Int {
        let decompressor = try ZlibDecompressor.borrow()
        defer { ZlibDecompressor.giveBack(decompressor) }
        return try decompressor.decompress(input, into: output)
    }
}

/// One decompressor for ``Zlib/decompress(_:into:)``: libdeflate's (about 10 KB, set up once,
/// not once a call) or, without libdeflate, a zlib ``Inflater``; used by one call at a time.
final class ZlibDecompressor: @unchecked Sendable {  // used by one thread at a time: borrowed from the pool, given back
    private let libdeflate: (library: LibDeflate, handle: UnsafeMutableRawPointer)?
    private let inflater: Inflater?

    /// The decompressors no call holds (at most ``poolLimit``).
    private static let pool = PreloadMutex<[ZlibDecompressor]>([])
    private static let poolLimit = 16

    /// A decompressor through `library`, or zlib's when it is nil (tests take that path on
    /// purpose) or cannot make one.
    init(libdeflate library: LibDeflate? = try? LibDeflate.get()) throws(ZlibError) {
        if let library, let handle = library.allocDecompressor() {
            libdeflate = (library, handle)
            inflater = nil
        } else {
            libdeflate = nil
            inflater = try Inflater(format: .zlib)
        }
    }

    deinit {
        if let libdeflate { libdeflate.library.freeDecompressor(libdeflate.handle) }
    }

    /// A decompressor from the pool, or a new one.
    static func borrow() throws(ZlibError) -> ZlibDecompressor {
        if let pooled = pool.withLock({ $0.popLast() }) { return pooled }
        return try ZlibDecompressor()
    }

    /// `decompressor` back in the pool (dropped when the pool is full).
    static func giveBack(_ decompressor: ZlibDecompressor) {
        pool.withLock { if $0.count < poolLimit { $0.append(decompressor) } }
    }

    /// ``Zlib/decompress(_:into:)`` with this decompressor.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(ZlibError) -> Int {
        if let libdeflate {
            var consumed = 0, produced = 0
            let result = libdeflate.library.zlibDecompress(
                libdeflate.handle, input.baseAddress, input.count, output.baseAddress, output.count, &consumed, &produced)
            switch result {
            case 0: return produced
            case 3: throw ZlibError(code: ZlibError.outputFull, operation: "inflate")
            default: throw ZlibError(code: Z_DATA_ERROR, operation: "inflate", detail: "libdeflate")
            }
        }
        guard let inflater else { throw ZlibError(code: Z_STREAM_ERROR, operation: "inflate") }
        try inflater.reset()
        let (consumed, produced) = try inflater.inflate(input, into: output)
        if inflater.isFinished { return produced }
        guard produced == output.count else { throw ZlibError(code: Z_BUF_ERROR, operation: "inflate") }
        // The output is full and the stream has not ended: one more byte tells a bomb from a
        // stream whose trailer is all that is left.
        var spare: UInt8 = 0
        let (_, more) = try withUnsafeMutableBytes(of: &spare) { spareByte throws(ZlibError) in
            try inflater.inflate(UnsafeRawBufferPointer(rebasing: input[consumed...]), into: spareByte)
        }
        if more > 0 { throw ZlibError(code: ZlibError.outputFull, operation: "inflate") }
        guard inflater.isFinished else { throw ZlibError(code: Z_BUF_ERROR, operation: "inflate") }
        return produced
    }
}
