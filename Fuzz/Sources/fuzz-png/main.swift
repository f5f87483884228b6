import FuzzSupport
import Preload
import PreloadPNG

/// Decodes the input as a PNG, straight and premultiplied, 8 and 16 bits, under small limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = ImageLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 4 << 20)
    for options in [
        PNGDecodeOptions(limits: limits),
        PNGDecodeOptions(alphaMode: .premultiplied, keepsSixteenBitSamples: true, limits: limits),
    ] {
        guard let texture = try? PNGDecoder.decode(bytes, options: options) else { continue }
        precondition(texture.pixels.count == texture.width * texture.height * texture.pixelFormat.bytesPerPixel)
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_png_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzPNG)
}
