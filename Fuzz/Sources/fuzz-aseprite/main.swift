import FuzzSupport
import Preload
import PreloadAnimation

/// Reads the input as an Aseprite file under small limits: an animation whose frames lie on
/// its pages and canvas, each drawn on the canvas, whose tags name its frames and whose slices'
/// keys are in frame order, or a typed error (`AsepriteError`, `TruncatedBytes`), never
/// another error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAseprite(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = ImageLimits(maxWidth: 512, maxHeight: 512, maxDecodedBytes: 8 << 20)
    do {
        let animation = try AsepriteLoader.animation(from: bytes, limits: limits).animation
        AnimationChecks.check(animation)
    } catch is AsepriteError {
    } catch is TruncatedBytes {
    } catch {
        preconditionFailure("an error of another type: \(error)")
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_aseprite_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzAseprite)
}
