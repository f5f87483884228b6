import FuzzSupport
import Preload
import PreloadAnimation

/// Reads the input as a GIF under small limits, through giflib (opened at run time) and the
/// frame compositor: an animation whose frames lie on its pages and canvas, each drawn on the
/// canvas, or a `GIFError`, never another error (the fuzzer's machine has giflib: a
/// `MissingSystemLibrary` is a finding too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = ImageLimits(maxWidth: 512, maxHeight: 512, maxDecodedBytes: 8 << 20)
    do {
        let animation = try GIFLoader.animation(from: bytes, limits: limits).animation
        precondition(animation.width > 0 && animation.height > 0 && !animation.frames.isEmpty)
        precondition(animation.loopCount >= 0 && animation.frames.allSatisfy { $0.durationMilliseconds >= 20 || $0.durationMilliseconds == 100 })
        for (index, frame) in animation.frames.enumerated() {
            let page = animation.pages[frame.page]
            precondition(frame.rect.x >= 0 && frame.rect.y >= 0 && frame.rect.x + frame.rect.width <= page.width)
            precondition(frame.rect.y + frame.rect.height <= page.height)
            precondition(frame.canvasRect.x + frame.canvasRect.width <= animation.width)
            precondition(frame.canvasRect.y + frame.canvasRect.height <= animation.height)
            precondition(animation.canvasPixels(ofFrame: index).count == animation.width * animation.height * 4)
        }
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
