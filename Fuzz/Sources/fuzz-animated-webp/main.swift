import FuzzSupport
import Preload
import PreloadAnimation
import PreloadWebP

/// Reads the input as an animated WebP under small limits: an animation whose frames lie on its
/// pages and canvas, each drawn on the canvas, or a typed error (`WebPDecodeError`,
/// `ImageLimitExceeded`), never another error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnimatedWebP(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = ImageLimits(maxWidth: 512, maxHeight: 512, maxDecodedBytes: 8 << 20)
    do {
        let animation = try AnimatedWebPLoader.animation(from: bytes, limits: limits).animation
        precondition(!animation.frames.isEmpty, "an animation has frames")
        AnimationChecks.check(animation)
    } catch is WebPDecodeError {
    } catch is ImageLimitExceeded {
    } catch {
        preconditionFailure("an error of another type: \(error)")
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_animated_webp_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzAnimatedWebP)
}
