import FuzzSupport
import Preload
import PreloadAnimation
import PreloadAtlas

/// Reads the input as an Aseprite file under small limits: an animation whose frames lie on
/// its pages and canvas, each drawn on the canvas, whose tags name its frames and whose slices'
/// keys are in frame order, or a typed error (`AsepriteError`, `TruncatedBytes`), never
/// another error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAseprite(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    if bytes.first == UInt8(ascii: "{") {
        fuzzSheetExport(bytes)
        return 0
    }
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

/// Reads the input as Aseprite's sheet export JSON (through PreloadAtlas's `TexturePackerJSON`)
/// over a 64x64 sheet: the claim answers at its header and at the whole text without trapping,
/// and the export is an animation whose frames lie on its pages and canvas, or an
/// `AsepriteError`, never another error.
func fuzzSheetExport(_ bytes: [UInt8]) {
    let loader = AsepriteSheetLoader()
    _ = loader.signatureMatch(Array(bytes.prefix(loader.headerLength)))
    _ = loader.signatureMatch(bytes)
    let side = 64
    let sheet = Texture(
        width: side, height: side, pixelFormat: .rgba8, alphaMode: .straight,
        pixels: AssetBytes((0..<side * side * 4).map { UInt8(truncatingIfNeeded: $0 * 7) }))
    do {
        let animation = try AsepriteSheetLoader.animation(json: bytes, page: sheet).animation
        for frame in animation.frames {
            let page = animation.pages[frame.page]
            precondition(frame.rect.isInside(width: page.width, height: page.height), "a frame on its page")
            precondition(frame.canvasRect.x + frame.canvasRect.width <= animation.width, "a frame on the canvas")
            precondition(frame.canvasRect.y + frame.canvasRect.height <= animation.height, "a frame on the canvas")
        }
        _ = animation.assetDescription(checksums: nil)
    } catch is AsepriteError {
    } catch {
        preconditionFailure("an error of another type: \(error)")
    }
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_aseprite_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzAseprite)
}
