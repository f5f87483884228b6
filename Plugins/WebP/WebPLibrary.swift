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
struct WebPLibrary: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    static let location = SystemLibraryLocation("libwebp", soname: "libwebp.so.7", debian: "libwebp7", dylib: "libwebp.7.dylib", homebrew: "webp")
    static let shared = opened()

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

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        getFeaturesInternal = try library.function("WebPGetFeaturesInternal")
        initDecBufferInternal = try library.function("WebPInitDecBufferInternal")
        newDecoder = try library.function("WebPINewDecoder")
        update = try library.function("WebPIUpdate")
        delete = try library.function("WebPIDelete")
        decodedRows = try library.function("WebPIDecGetRGB")
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
