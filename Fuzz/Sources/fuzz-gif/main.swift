import FuzzSupport
import Preload
import PreloadAnimation

/// Reads the input as a GIF under small limits, through giflib (opened at run time) and the
/// frame compositor: an animation of at least one frame on a screen of some size, with GIF's
/// delays, keeping what every animation keeps (`AnimationChecks`: frames on their pages and
/// canvas, each drawn on the canvas, a frame for any time, a description), or a `GIFError`,
/// never another error (the fuzzer's machine has giflib: a `MissingSystemLibrary` is a finding
/// too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = ImageLimits(maxWidth: 512, maxHeight: 512, maxDecodedBytes: 8 << 20)
    do {
        let animation = try GIFLoader.animation(from: bytes, limits: limits).animation
        precondition(animation.width > 0 && animation.height > 0 && !animation.frames.isEmpty)
        precondition(animation.loopCount >= 0 && animation.frames.allSatisfy { $0.durationMilliseconds >= 20 || $0.durationMilliseconds == 100 })
        AnimationChecks.check(animation)
    } catch is GIFError {
    } catch {
        preconditionFailure("an error of another type: \(error)")
    }
    return 0
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_gif_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzGIF)
}
