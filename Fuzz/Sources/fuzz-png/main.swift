import FuzzSupport
import Preload
import PreloadPNG

/// Decodes the input as a PNG, straight and premultiplied, 8 and 16 bits, under small limits, with
/// libpng alone, the fast path alone and the automatic choice: the fast path must give libpng's
/// pixels, warnings and error, or decline (a difference stops the fuzzer as a finding).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let limits = ImageLimits(maxWidth: 1024, maxHeight: 1024, maxDecodedBytes: 4 << 20)
    for options in [
        PNGLoaderSettings(limits: limits),
        PNGLoaderSettings(alphaMode: .premultiplied, keepsSixteenBitSamples: true, limits: limits),
    ] {
        let libpng = decode(bytes, options, .libpngOnly)
        precondition(decode(bytes, options, .automatic) == libpng, "the automatic decode differs from libpng's")
        let fast = decode(bytes, options, .fastPathOnly)
        precondition(fast == libpng || fast.declined, "the fast path differs from libpng")
        if case .decoded(let texture, _) = libpng {
            precondition(texture.pixels.count == texture.width * texture.height * texture.pixelFormat.bytesPerPixel)
        }
    }
    return 0
}

/// What one decode gave.
enum Outcome: Equatable {
    case decoded(Texture, [AssetWarning])
    case failed(String)
    case declinedByTheFastPath

    var declined: Bool { self == .declinedByTheFastPath }

    static func == (left: Outcome, right: Outcome) -> Bool {
        switch (left, right) {
        case (.decoded(let a, let aWarnings), .decoded(let b, let bWarnings)):
            a.width == b.width && a.height == b.height && a.pixels.array == b.pixels.array && aWarnings.map(\.message) == bWarnings.map(\.message)
        case (.failed(let a), .failed(let b)): a == b
        case (.declinedByTheFastPath, .declinedByTheFastPath): true
        default: false
        }
    }
}

func decode(_ bytes: [UInt8], _ options: PNGLoaderSettings, _ path: PNGDecodePath) -> Outcome {
    var options = options
    options.settings.path = path
    var warnings: [AssetWarning] = []
    do {
        return .decoded(try PNGDecoder.decode(bytes, options: options, warn: { warnings.append($0) }), warnings)
    } catch is PNGFastPathDeclined {
        return .declinedByTheFastPath
    } catch {
        return .failed("\(error)")
    }
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_png_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzPNG)
}
