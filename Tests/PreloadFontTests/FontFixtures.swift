import Foundation
import Preload
import PreloadFont

/// The font `make_fixtures.py` wrote in BMFont's three encodings, and the numbers it wrote
/// (`Fixtures/expected.json`).
enum FontFixtures {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    static let encodings = ["font-text.fnt": BitmapFont.Format.text, "font-xml.fnt": .xml, "font-binary.fnt": .binary]

    struct Expected: Decodable {
        struct Char: Decodable {
            let id: Int64, x: Int, y: Int, width: Int, height: Int, xoffset: Int, yoffset: Int, xadvance: Int, page: Int, chnl: UInt8
            var glyph: BitmapGlyph {
                BitmapGlyph(
                    id: id, x: x, y: y, width: width, height: height, xOffset: xoffset, yOffset: yoffset, xAdvance: xadvance, page: page,
                    channels: FontChannels(rawValue: chnl))
            }
        }
        struct Pair: Decodable {
            let first: Int64, second: Int64, amount: Int
        }
        struct Metrics: Decodable {
            let face: String, size: Int, lineHeight: Int, base: Int, scaleW: Int, scaleH: Int, spacing: [Int], padding: [Int]
        }
        let metrics: Metrics
        let pages: [String]
        let chars: [Char]
        let kernings: [Pair]
    }

    static let expected: Expected = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("expected.json"))
        return try! JSONDecoder().decode(Expected.self, from: data)
    }()

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }
}
