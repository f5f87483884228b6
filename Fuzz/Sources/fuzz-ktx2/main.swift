import FuzzSupport
import Preload
import PreloadKTX2

/// Loads the input as a KTX2 file under small limits: a texture holding exactly the bytes of its
/// levels, whose size the plugin's estimate from the header announced, or one of the plugin's
/// typed errors (`AssetFailure`s: `KTX2Error`, `KTX2LoadError`), never a trap or another error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKTX2(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let loader = KTX2Loader(defaults: KTX2LoaderSettings(limits: ImageLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 4 << 20)))
    let estimate = loader.estimatedDecodedBytes(header: Array(bytes.prefix(loader.headerLength)))
    do {
        let texture = try bytes.withUnsafeBytes { try KTX2Loader.texture(decoding: $0, settings: loader.defaults) }
        let levels = texture.levels
        precondition(texture.pixels.count == (levels.last.map { $0.offset + $0.byteCount } ?? 0), "the pixels are the levels' bytes")
        precondition(estimate == texture.pixels.count, "the header's estimate is the loaded size")
    } catch is any AssetFailure {  // KTX2Error (PreloadGPU's reader) or KTX2LoadError (the plugin's refusals)
    } catch {
        preconditionFailure("an untyped error: \(error)")
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_ktx2_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzKTX2)
}
