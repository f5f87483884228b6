import CPreloadWebP
import Preload

/// libwebp's decoder, opened at run time (`libwebp.so.7`, Debian's `libwebp7`): the functions
/// this plugin calls, resolved once for the process.
///
/// Opening it at run time, not linking it, lets the package build on a machine with libwebp's
/// run-time library but not its headers, and lets a game that names `PreloadWebP` start on a
/// machine without libwebp: its WebP assets then fail with ``MissingSystemLibrary`` naming the
/// package, its other assets load. The types come from `CPreloadWebP` (decoder ABI 0x0209, every
/// libwebp 1.x); libwebp checks that version in each `...Internal` call.
struct WebPLibrary: @unchecked Sendable {  // C function pointers, immutable once resolved
    /// The library for this process, or why it is missing; opened on first use.
    static let shared = Result { () throws(MissingSystemLibrary) in try WebPLibrary() }

    /// The loaded library, or the error naming what to install.
    static func get() throws(MissingSystemLibrary) -> WebPLibrary { try shared.get() }

    private let getFeaturesInternal: PreloadWebPGetFeaturesInternal
    private let initDecBufferInternal: PreloadWebPInitDecBufferInternal
    /// `WebPINewDecoder`: an incremental decoder writing into a `WebPDecBuffer`.
    let newDecoder: PreloadWebPINewDecoder
    /// `WebPIUpdate`: decodes as far as the first `count` bytes of the data allow.
    let update: PreloadWebPIUpdate
    /// `WebPIDelete`.
    let delete: PreloadWebPIDelete
    /// `WebPIDecGetRGB`: the rows done so far.
    let decodedRows: PreloadWebPIDecGetRGB
    /// `WebPGetDecoderVersion`: 0xMMmmpp.
    let version: Int

    private init() throws(MissingSystemLibrary) {
        #if canImport(Darwin)
            let library = try SystemLibrary.open(
                "libwebp", fileNames: ["libwebp.7.dylib", "/opt/homebrew/lib/libwebp.7.dylib", "/usr/local/lib/libwebp.7.dylib"],
                package: "webp")
        #else
            let library = try SystemLibrary.open("libwebp", fileNames: ["libwebp.so.7"], package: "libwebp7")
        #endif
        getFeaturesInternal = try library.function("WebPGetFeaturesInternal", as: PreloadWebPGetFeaturesInternal.self)
        initDecBufferInternal = try library.function("WebPInitDecBufferInternal", as: PreloadWebPInitDecBufferInternal.self)
        newDecoder = try library.function("WebPINewDecoder", as: PreloadWebPINewDecoder.self)
        update = try library.function("WebPIUpdate", as: PreloadWebPIUpdate.self)
        delete = try library.function("WebPIDelete", as: PreloadWebPIDelete.self)
        decodedRows = try library.function("WebPIDecGetRGB", as: PreloadWebPIDecGetRGB.self)
        version = Int(try library.function("WebPGetDecoderVersion", as: PreloadWebPGetDecoderVersion.self)())
    }

    /// `WebPGetFeatures`: the headers of `count` bytes at `data`.
    func features(_ data: UnsafePointer<UInt8>?, _ count: Int, _ features: inout WebPBitstreamFeatures) -> VP8StatusCode {
        getFeaturesInternal(data, count, &features, PRELOAD_WEBP_DECODER_ABI_VERSION)
    }

    /// `WebPInitDecBuffer`: false when libwebp does not share this ABI's major version.
    func initDecBuffer(_ buffer: UnsafeMutablePointer<WebPDecBuffer>) -> Bool {
        initDecBufferInternal(buffer, PRELOAD_WEBP_DECODER_ABI_VERSION) != 0
    }
}
