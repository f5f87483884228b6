import ArgumentParser
import Foundation
import Preload
import PreloadFont
import PreloadPNG
import PreloadTileMap

/// What reading a font's or a map's descriptor costs beside decoding its images, in one process
/// on one thread: each round reads every descriptor named (a font: `BitmapFontLoader.describe`,
/// the file read, its form told, every glyph and pair parsed; a map: `TileMapLoader.describe`,
/// the file read and every layer decoded, then `TileMap.withTextures`, the images attached and
/// every placed tile checked: what planning and the load do) and decodes its images from memory
/// (`PNGDecoder`), and prints both and their ratio; the median ratio is the figure (issue 37's
/// target: below 1).
///
///     python3 Benchmarks/Scripts/make_font_corpus.py /tmp/bigfont
///     python3 Benchmarks/Scripts/make_map_corpus.py /tmp/maps
///     swift run -c release --package-path Benchmarks descriptor-bench /tmp/bigfont/big-*.fnt /tmp/maps/*.tmx /tmp/maps/*.tmj
@main struct DescriptorBench: ParsableCommand {
    @Argument(help: "Bitmap font descriptors (.fnt in any form) and Tiled maps (.tmx, .tmj).") var descriptors: [String]
    @Option(help: "Rounds.") var rounds = 9

    func run() throws {
        for path in descriptors {
            let isMap = ["tmx", "tmj"].contains(AssetPath.fileExtension(of: path))
            let (what, imagePaths) = try isMap ? Self.describeMap(path) : Self.describeFont(path)
            let images = try imagePaths.map { AssetBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: $0)))) }
            var textures: [String: Texture] = [:]
            for (path, bytes) in zip(imagePaths, images) { textures[path] = try PNGDecoder.decode(bytes) }
            var ratios: [Double] = [], reads: [Double] = [], decodes: [Double] = []
            for _ in 0..<rounds {
                let read = try Self.seconds {
                    if isMap {
                        _ = try TileMapLoader.describe(path: path).withTextures(file: path) { textures[$0]! }
                    } else {
                        _ = try BitmapFontLoader.describe(path: path)
                    }
                }
                let decode = try Self.seconds { for image in images { _ = try PNGDecoder.decode(image) } }
                reads.append(read)
                decodes.append(decode)
                ratios.append(read / decode)
            }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            print(
                String(
                    format: "%@ (%@): descriptor %.2f ms, %d images %.2f ms: %.2fx", AssetPath.fileName(of: path), what, median(reads) * 1e3,
                    images.count, median(decodes) * 1e3, median(ratios)))
        }
    }

    static func describeFont(_ path: String) throws -> (String, [String]) {
        let font = try BitmapFontLoader.describe(path: path)
        return ("\(font.format.rawValue), \(font.glyphs.count) glyphs, \(font.kerningPairs.count) pairs", font.pages.map(\.path))
    }

    static func describeMap(_ path: String) throws -> (String, [String]) {
        let map = try TileMapLoader.describe(path: path)
        let tiles = map.allLayers.reduce(0) { $0 + ($1.tiles?.storedCount ?? 0) }
        return ("map \(map.width)x\(map.height), \(map.allLayers.count) layers, \(tiles) tiles", map.images.map(\.path))
    }

    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try work()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
