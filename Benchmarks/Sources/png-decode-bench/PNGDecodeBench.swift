import ArgumentParser
import BenchSupport
import Foundation
import Preload
import PreloadPNG

/// The PNG plugin's two decoders on the same files, in one process, on one thread: every file is
/// read into memory once, then each round decodes all of them with libpng alone and with the fast
/// path (the order alternating), and prints megapixels per second and the fast path's speed-up.
/// Only files the fast path takes count (the others are libpng's either way); pixels are
/// compared once.
///
///     swift run -c release --package-path Benchmarks png-decode-bench /tmp/game --min-pixels 262144
@main struct PNGDecodeBench: ParsableCommand {
    @Argument(help: "A folder of PNG files (searched recursively).") var corpus: String
    @Option(help: "Rounds, each decoding every file once with each decoder.") var rounds = 7
    @Option(help: "Only images with at least this many pixels.") var minPixels = 0
    @Option(help: "Only images with at most this many pixels.") var maxPixels = Int.max

    func run() throws {
        let files = try pngFiles(under: corpus).map { AssetBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: $0)))) }
        var taken: [AssetBytes] = []
        var declined: [String: Int] = [:]
        for file in files {
            let size = file.withUnsafeBytes { pixelCount(ofHeader: Array($0.prefix(PNGDecoder.headerLength))) }
            guard let size, size >= minPixels, size <= maxPixels else { continue }
            if let reason = file.withUnsafeBytes({ PNGFastPath.declineReason(for: $0.bindMemory(to: UInt8.self)) }) {
                declined[reason, default: 0] += 1
            } else {
                taken.append(file)
            }
        }
        guard !taken.isEmpty else { throw ValidationError("no file in \(corpus) that the fast path takes") }
        let pixels = try taken.reduce(0) { total, file in
            let libpng = try PNGDecoder.decode(file, options: Self.options(.libpngOnly))
            let fast = try PNGDecoder.decode(file, options: Self.options(.fastPathOnly))
            guard libpng.pixels.array == fast.pixels.array else { throw ValidationError("the decoders' pixels differ") }
            return total + libpng.width * libpng.height
        }
        print("\(taken.count) files the fast path takes, \(String(format: "%.1f", Double(pixels) / 1e6)) Mpx; left to libpng: \(declined)")
        var ratios: [Double] = []
        for round in 0..<rounds {
            var seconds: [PNGDecodePath: Double] = [:]
            for path in round % 2 == 0 ? [PNGDecodePath.libpngOnly, .fastPathOnly] : [.fastPathOnly, .libpngOnly] {
                let options = Self.options(path)
                let start = ContinuousClock.now
                for file in taken { _ = try PNGDecoder.decode(file, options: options) }
                let elapsed = ContinuousClock.now - start
                seconds[path] = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
            let libpng = seconds[.libpngOnly]!, fast = seconds[.fastPathOnly]!
            ratios.append(libpng / fast)
            print(
                String(
                    format: "round %d: libpng %.1f Mpx/s, fast path %.1f Mpx/s: %.2fx", round, Double(pixels) / libpng / 1e6,
                    Double(pixels) / fast / 1e6, libpng / fast))
        }
        print(String(format: "median speed-up of the fast path over libpng: %.2fx", ratios.sorted()[ratios.count / 2]))
    }

    static func options(_ path: PNGDecodePath) -> PNGLoaderSettings {
        var options = PNGLoaderSettings()
        options.settings.path = path
        return options
    }
}

/// The pixels the IHDR in `header` (a file's first bytes) declares, or nil.
func pixelCount(ofHeader header: [UInt8]) -> Int? {
    PNGDecoder.estimatedSize(header: header, options: PNGLoaderSettings()).map { $0.width * $0.height }
}
