import CPreloadASTC
import Preload
import PreloadConcurrency

/// astcenc contexts of one configuration, kept for reuse by an ``ASTCEncoder`` or ``ASTCDecoder``:
/// allocating one builds astcenc's tables for its block size (4 ms at 4x4 to 10 ms at 8x8 here),
/// longer than encoding a small mipmap level takes. Each caller borrows a context of its own, so
/// an encoder encodes several images at once; the contexts are freed with the pool.
final class ASTCContextPool: Sendable {
    let library: ASTCLibrary
    /// The threads each context is made for (`astcenc_context_alloc`'s `thread_count`).
    let threadCount: Int
    private let config: astcenc_config
    /// Contexts no caller holds, as addresses.
    private let idle: PreloadMutex<[UInt]>

    /// Contexts for `blockSize` blocks in `colorSpace`'s profile, at `quality`, with astcenc's
    /// `flags`, each used by `threadCount` threads at once; makes one now, so that a
    /// configuration astcenc refuses throws here.
    init(
        library: ASTCLibrary, blockSize: ASTCBlockSize, colorSpace: ColorSpace, quality: EncoderQuality, flags: UInt32, threadCount: Int
    ) throws(ASTCError) {
        let profile = colorSpace == .sRGB ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR
        var config = astcenc_config()
        try library.check(
            library.configInit(profile, UInt32(blockSize.width), UInt32(blockSize.height), 1, quality.astcPreset, flags, &config),
            "astcenc_config_init")
        self.library = library
        self.threadCount = threadCount
        self.config = config
        idle = PreloadMutex([UInt(bitPattern: try Self.allocate(library, config, threadCount))])
    }

    deinit {
        for address in idle.withLock({ $0 }) { library.contextFree(OpaquePointer(bitPattern: address)) }
    }

    /// Runs `body` with a context no one else holds, then keeps the context for the next caller.
    func withContext<Result>(_ body: (OpaquePointer) throws(ASTCError) -> Result) throws(ASTCError) -> Result {
        let context: OpaquePointer
        if let kept = idle.withLock({ $0.popLast() }).flatMap({ OpaquePointer(bitPattern: $0) }) {
            context = kept
        } else {
            context = try Self.allocate(library, config, threadCount)
        }
        defer { idle.withLock { $0.append(UInt(bitPattern: context)) } }
        return try body(context)
    }

    private static func allocate(_ library: ASTCLibrary, _ config: astcenc_config, _ threadCount: Int) throws(ASTCError) -> OpaquePointer {
        var config = config
        var context: OpaquePointer?
        try library.check(library.contextAlloc(&config, UInt32(threadCount), &context), "astcenc_context_alloc")
        guard let context else { throw ASTCError.library(function: "astcenc_context_alloc", status: 1, message: "no context") }
        return context
    }
}
