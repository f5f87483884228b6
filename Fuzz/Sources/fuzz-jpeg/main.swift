import FuzzSupport
import Preload
import PreloadJPEG

/// Decodes the input as a JPEG, as stored and turned upright by its EXIF orientation, under
/// small limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = ImageLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 4 << 20)
    for options in [
        JPEGLoaderSettings(limits: limits),
        JPEGLoaderSettings(alphaMode: .premultiplied, appliesExifOrientation: true, limits: limits),
    ] {
        guard let texture = try? JPEGDecoder.decode(bytes, options: options) else { continue }
        precondition(texture.pixels.count == texture.width * texture.height * texture.pixelFormat.bytesPerPixel)
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_jpeg_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzJPEG)
}
