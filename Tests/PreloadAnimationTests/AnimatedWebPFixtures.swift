import Foundation
import Testing

/// The animated WebPs `Fixtures/WebP/make_webp_references.py` assembled, and the frames Pillow
/// (libwebp's `WebPAnimDecoder`) composited from each (`NAME.rgba`, `references.json`).
enum AnimatedWebPFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("WebP")

    /// One file's line of `references.json`.
    struct Reference: Sendable {
        let width: Int, height: Int, frames: Int
        let durations: [Int]
        let loop: Int
        /// Every frame's whole canvas, RGBA8, as Pillow gives it.
        let canvases: [[UInt8]]
    }

    static let names = ["lossless-blend-keep.webp", "lossy-alpha-dispose.webp", "mixed-no-blend.webp", "pillow-encoder.webp"]

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static func reference(_ name: String) throws -> Reference {
        let listed = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("references.json")))
        let entry = try #require((listed as? [String: Any])?[name] as? [String: Any])
        let width = try #require(entry["width"] as? Int), height = try #require(entry["height"] as? Int)
        let frames = try #require(entry["frames"] as? Int)
        let pixels = try bytes(name.replacingOccurrences(of: ".webp", with: ".rgba"))
        let size = width * height * 4
        return Reference(
            width: width, height: height, frames: frames, durations: try #require(entry["durations"] as? [Int]),
            loop: try #require(entry["loop"] as? Int),
            canvases: (0..<frames).map { Array(pixels[$0 * size..<($0 + 1) * size]) })
    }

    /// The byte offsets of the pixels of `canvas` that differ from `expected`'s. A pixel of alpha 0
    /// is compared by its alpha alone: libwebp leaves a lossy frame's colour noise under it,
    /// which a `SpriteAnimation` trims away outside a frame's bounds (and nothing shows it).
    static func differing(_ canvas: [UInt8], _ expected: [UInt8]) -> [Int] {
        guard canvas.count == expected.count else { return [0] }
        return stride(from: 0, to: canvas.count, by: 4).filter {
            expected[$0 + 3] == 0 ? canvas[$0 + 3] != 0 : canvas[$0..<$0 + 4] != expected[$0..<$0 + 4]
        }
    }

    /// Where the chunk named `name` (its FourCC) starts in `file`, from `start`.
    static func offset(of name: String, in file: [UInt8], from start: Int = 12) -> Int? {
        let tag = Array(name.utf8)
        return (start..<max(start, file.count - 3)).first { Array(file[$0..<$0 + 4]) == tag }
    }
}
