import ArgumentParser
import Foundation
import Preload
import PreloadAuthoring
import PreloadPNG
import PreloadTrueType

/// What rasterizing a TrueType font at load costs next to decoding the page it makes: for each
/// size, the font's characters (printable ASCII by default) rasterized by PreloadTrueType, against
/// the resulting page encoded as a PNG and decoded by the PNG plugin. Both in one process on one
/// thread, the order alternating each round; first each side alone (`TrueTypeFontLoader.load`,
/// `PNGDecoder.decode` from bytes in memory), then each file loaded by a fresh coordinator.
/// Prints the median of each.
///
///     swift run -c release --package-path Benchmarks font-bench sample-assets/fonts/DejaVuSans.ttf --sizes 32 64
@main struct FontBench: AsyncParsableCommand {
    @Argument(help: "A TrueType or OpenType font.") var font: String
    @Option(parsing: .upToNextOption, help: "Pixel sizes to rasterize at.") var sizes: [Int] = [32, 64]
    @Option(help: "Rounds, each loading the font and the page once.") var rounds = 101

    func run() async throws {
        let bytes = AssetBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: font))))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("font-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for size in sizes {
            let options = TrueTypeFontLoaderSettings(pixelSize: size)
            let (reference, _) = try TrueTypeFontLoader.load(bytes, options: options)
            guard reference.pages.count == 1 else { throw ValidationError("at \(size) px the font takes \(reference.pages.count) pages, not 1") }
            let page = reference.pages[0].texture
            let png = try PNGEncoder.encode(page)
            let pagePath = folder.appendingPathComponent("page-\(size).png").path
            try Data(png).write(to: URL(fileURLWithPath: pagePath))
            guard try PNGDecoder.decode(png).pixels == page.pixels else { throw ValidationError("the PNG's pixels differ from the page's") }
            let requestOptions = AssetOptions().with(TrueTypeFontLoaderSettings.self, options)
            var direct: [String: [Double]] = [:], coordinated: [String: [Double]] = [:]
            for round in 0..<rounds {
                for side in round % 2 == 0 ? ["font", "png"] : ["png", "font"] {
                    let start = ContinuousClock.now
                    if side == "font" {
                        _ = try TrueTypeFontLoader.load(bytes, options: options)
                    } else {
                        _ = try PNGDecoder.decode(AssetBytes(png))
                    }
                    direct[side, default: []].append(Self.seconds(since: start))
                    let coordinator = try PreloadCoordinator(plugins: [TrueTypeFontLoader(), PNGLoader()])
                    let request = side == "font" ? AssetRequest(path: font, options: requestOptions) : AssetRequest(path: pagePath)
                    let loading = ContinuousClock.now
                    let report = try await coordinator.preload([request])
                    coordinated[side, default: []].append(Self.seconds(since: loading))
                    guard report.everythingLoaded else { throw ValidationError("\(report.errors)") }
                }
            }
            let font = (direct["font"]!.median, coordinated["font"]!.median), decode = (direct["png"]!.median, coordinated["png"]!.median)
            print(
                "\(size) px: \(reference.glyphs.count) glyphs on a \(page.width)x\(page.height) page (PNG \(png.count) bytes); median of \(rounds):",
                "rasterize \(Self.ms(font.0)) vs PNG decode \(Self.ms(decode.0)) (\(String(format: "%.1f", font.0 / decode.0))x);",
                "through a coordinator \(Self.ms(font.1)) vs \(Self.ms(decode.1)) (\(String(format: "%.1f", font.1 / decode.1))x)")
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
}

extension Array where Element == Double {
    /// The middle value.
    var median: Double { sorted()[count / 2] }
}
