import FuzzSupport
import Preload
import PreloadWebP

/// Decodes the input as a WebP (still or animated), straight and premultiplied, under small
/// limits, and checks the pixel count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = ImageLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 4 << 20)
    for options in [WebPLoaderSettings(limits: limits), WebPLoaderSettings(alphaMode: .premultiplied, limits: limits)] {
        guard let texture = try? WebPDecoder.decode(bytes, options: options) else { continue }
        precondition(texture.pixels.count == texture.width * texture.height * 4)
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_webp_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzWebP)
}
