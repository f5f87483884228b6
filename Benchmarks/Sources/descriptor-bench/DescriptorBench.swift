import ArgumentParser
import Foundation
import Preload
import PreloadFont
import PreloadPNG

/// What reading a font's descriptor costs beside decoding its pages, in one process on one
/// thread: each round reads every descriptor named (`BitmapFontLoader.describe`: the file read,
/// its form told, every glyph and pair parsed, the pages resolved) and decodes each one's pages
/// from memory (`PNGDecoder`), and prints both and their ratio; the median ratio is the figure
/// (issue 37's target: below 1).
///
///     python3 Benchmarks/Scripts/make_font_corpus.py /tmp/bigfont
///     swift run -c release --package-path Benchmarks descriptor-bench /tmp/bigfont/big-*.fnt
@main struct DescriptorBench: ParsableCommand {
    @Argument(help: "Bitmap font descriptors (.fnt in any form).") var descriptors: [String]
    @Option(help: "Rounds.") var rounds = 9

    func run() throws {
        for path in descriptors {
            let description = try BitmapFontLoader.describe(path: path)
            let pages = try description.pages.map { AssetBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: $0.path)))) }
            var ratios: [Double] = [], reads: [Double] = [], decodes: [Double] = []
            for _ in 0..<rounds {
                let read = try Self.seconds { _ = try BitmapFontLoader.describe(path: path) }
                let decode = try Self.seconds { for page in pages { _ = try PNGDecoder.decode(page) } }
                reads.append(read)
                decodes.append(decode)
                ratios.append(read / decode)
            }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            print(
                String(
                    format: "%@ (%@, %d glyphs, %d pairs): descriptor %.2f ms, %d pages %.2f ms: %.2fx", AssetPath.fileName(of: path),
                    description.format.rawValue, description.glyphs.count, description.kerningPairs.count, median(reads) * 1e3,
                    pages.count, median(decodes) * 1e3, median(ratios)))
        }
    }

    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try work()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
