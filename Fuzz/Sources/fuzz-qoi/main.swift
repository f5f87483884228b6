import FuzzSupport
import Preload
import PreloadQOI

/// Decodes the input as a QOI file, straight and premultiplied, under small limits, and checks
/// the pixel count and that a header the plugin estimates from agrees with the decode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQOI(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = ImageLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 4 << 20)
    let loader = QOILoader(defaults: QOILoaderSettings(limits: limits))
    let estimate = loader.estimatedDecodedBytes(header: Array(bytes.prefix(loader.headerLength)))
    for options in [QOILoaderSettings(limits: limits), QOILoaderSettings(alphaMode: .premultiplied, limits: limits)] {
        guard let texture = try? QOIDecoder.decode(bytes, options: options) else { continue }
        precondition(texture.pixels.count == texture.width * texture.height * 4)
        precondition(estimate == texture.pixels.count, "the header's estimate is the decoded size")
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_qoi_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzQOI)
}
