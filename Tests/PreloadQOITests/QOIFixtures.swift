import Foundation
import Preload
import PreloadQOI
import PreloadTestSupport

/// The fixture files (see Fixtures/make_fixtures.py) and QOI files written op by op.
enum QOIFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    /// Every fixture's name, without `.qoi`.
    static let names: [String] = try! FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.hasSuffix(".qoi") }
        .map { String($0.dropLast(4)) }
        .sorted()

    /// The file `name.qoi`.
    static func file(_ name: String) -> [UInt8] {
        [UInt8](try! Data(contentsOf: folder.appendingPathComponent(name + ".qoi")))
    }

    /// Pillow's decode of `name.qoi`, RGBA8.
    static func expected(_ name: String) -> [UInt8] {
        [UInt8](try! Data(contentsOf: folder.appendingPathComponent(name + ".rgba")))
    }

    /// A QOI file: the header, `ops`, then `end` (the end marker unless given).
    static func qoi(
        width: Int, height: Int, channels: UInt8 = 4, colorspace: UInt8 = 0, ops: [UInt8], end: [UInt8] = QOIDecoder.endMarker
    )
        -> [UInt8]
    {
        func bigEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        return QOIDecoder.signature + bigEndian(width) + bigEndian(height) + [channels, colorspace] + ops + end
    }

    /// `QOI_OP_RGB` for (`r`, `g`, `b`).
    static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> [UInt8] { [0xFE, r, g, b] }
    /// `QOI_OP_RGBA` for (`r`, `g`, `b`, `a`).
    static func rgba(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> [UInt8] { [0xFF, r, g, b, a] }
    /// `QOI_OP_RUN` of `length` (1...62) pixels.
    static func run(_ length: Int) -> [UInt8] { [0xC0 | UInt8(length - 1)] }

    /// A `width` x `height` image of one `QOI_OP_DIFF` per pixel (every channel up by one):
    /// one byte of input per pixel, for tests that need a long decode.
    static func ramp(width: Int, height: Int) -> [UInt8] {
        qoi(width: width, height: height, ops: [UInt8](repeating: 0x40 | 3 << 4 | 3 << 2 | 3, count: width * height))
    }

    /// Decodes `data`, returning the texture and the warnings it was forgiven.
    static func decode(_ data: [UInt8], options: QOILoaderSettings = QOILoaderSettings()) throws -> (Texture, [AssetWarning]) {
        var warnings: [AssetWarning] = []
        let texture = try QOIDecoder.decode(data, options: options, warn: { warnings.append($0) })
        return (texture, warnings)
    }

    /// The error decoding `data` throws, `nil` if it decodes (or throws something else).
    static func decodeError(_ data: [UInt8], options: QOILoaderSettings = QOILoaderSettings()) -> QOIDecodeError? {
        do {
            _ = try QOIDecoder.decode(data, options: options)
            return nil
        } catch {
            return error as? QOIDecodeError
        }
    }

    /// The limit error decoding `data` throws (the one every image decoder throws), `nil` otherwise.
    static func limitError(_ data: [UInt8], options: QOILoaderSettings = QOILoaderSettings()) -> ImageLimitExceeded? {
        thrownError(ImageLimitExceeded.self) { _ = try QOIDecoder.decode(data, options: options) }
    }
}
