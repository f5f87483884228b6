import FuzzSupport
import Preload
import PreloadAnimation
import PreloadZlib

/// Reads the input as an APNG through `APNGLoader.animation(from:limits:)` under small limits,
/// twice: as it is (the CRC checks), and, when it starts with the PNG signature, with every
/// chunk's CRC made right first, so mutations reach the chunk, sequence and frame checks and the
/// frames' decoding: an animation whose frames lie on its pages and canvas, or a typed error
/// (`APNGError`, `TruncatedBytes`, `ImageLimitExceeded`), never another error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNG(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    load(bytes)
    if let sealed = withRightCRCs(bytes) { load(sealed) }
    return 0
}

private func load(_ bytes: [UInt8]) {
    let limits = ImageLimits(maxWidth: 512, maxHeight: 512, maxDecodedBytes: 8 << 20)
    do {
        let animation = try APNGLoader.animation(from: bytes, limits: limits).animation
        precondition(!animation.frames.isEmpty, "an animation has a frame")
        AnimationChecks.check(animation)
    } catch is APNGError {
    } catch is TruncatedBytes {
    } catch is ImageLimitExceeded {
    } catch {
        preconditionFailure("an error of another type: \(error)")
    }
}

/// `bytes` with each whole chunk's CRC computed again, when they start with the PNG signature.
private func withRightCRCs(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
    var sealed = bytes
    var offset = 8
    while offset + 12 <= sealed.count {
        let length = sealed[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= sealed.count - offset - 12 else { break }
        let crc = sealed.withUnsafeBytes { Zlib.crc32(UnsafeRawBufferPointer(rebasing: $0[offset + 4..<offset + 8 + length])) }
        for index in 0..<4 { sealed[offset + 8 + length + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        offset += length + 12
    }
    return sealed == bytes ? nil : sealed
}

/// The program's entry point under SwiftPM's name for it: hands control to libFuzzer.
@_cdecl("fuzz_apng_main")
public func fuzzMain(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc: argc, argv: argv, fuzzAPNG)
}
