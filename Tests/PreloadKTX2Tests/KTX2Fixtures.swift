import Foundation
import Preload
import PreloadGPU
import PreloadKTX2

/// The fixture files: Khronos' own KTX2 files and the reference outputs of their tools (see
/// Fixtures/README.md), read by name.
enum KTX2Fixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    /// The bytes of the fixture `name` (with its extension).
    static func bytes(_ name: String) -> [UInt8] {
        [UInt8](try! Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The texture ``KTX2Loader`` makes of `bytes`, outside a coordinator.
    static func texture(_ bytes: [UInt8], settings: KTX2LoaderSettings = KTX2LoaderSettings()) throws -> Texture {
        try bytes.withUnsafeBytes { try KTX2Loader.texture(decoding: $0, settings: settings) }
    }

    /// A texture's pixels as an array.
    static func pixels(_ texture: Texture) -> [UInt8] { texture.pixels.withUnsafeBytes { Array($0) } }
}

extension KTX2Fixtures {
    /// Whether astcenc (Debian's libastcenc3d) is installed: a fresh machine lacks it.
    static let hasASTC = (try? ASTCDecoder(blockSize: .fourByFour, colorSpace: .sRGB)) != nil

    /// The little-endian `UInt32` at `offset` of `bytes`.
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// The little-endian `UInt64` at `offset` of `bytes`.
    static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
