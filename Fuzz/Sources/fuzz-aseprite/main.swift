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
        for (index, frame) in animation.frames.enumerated() {
            let page = animation.pages[frame.page]
            precondition(frame.rect.x >= 0 && frame.rect.y >= 0 && frame.rect.x + frame.rect.width <= page.width)
            precondition(frame.rect.y + frame.rect.height <= page.height)
            precondition(frame.canvasRect.x + frame.canvasRect.width <= animation.width)
            precondition(frame.canvasRect.y + frame.canvasRect.height <= animation.height)
            precondition(animation.canvasPixels(ofFrame: index).count == animation.width * animation.height * 4)
        }
        for tag in animation.tags {
            precondition(animation.frameIndex(at: .milliseconds(12345), tag: tag.name) != nil, "a tag names its frames")
        }
        for slice in animation.slices {
            precondition(zip(slice.keys, slice.keys.dropFirst()).allSatisfy { $0.frame <= $1.frame }, "a slice's keys by frame")
            for index in animation.frames.indices {
                if let key = slice.key(atFrame: index) { precondition(key.frame <= index && !key.isHidden) }
            }
        }
        _ = animation.assetDescription(checksums: nil)
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
