import ArgumentParser
import BenchSupport
import Foundation
import Preload
import PreloadGPU
import PreloadPNG

/// Encodes every PNG of a corpus (decoded to RGBA8 by PreloadPNG, 16-bit and grey files
/// included) to BC7 at each quality, decodes the blocks back and prints, per quality: mean and
/// minimum PSNR over premultiplied RGBA against the source (and the worst image), the worst 4×4
/// block, megapixels per second of encoding, and speed and error against the fast preset, the
/// baseline measured in the same run. Means per folder of the corpus follow.
///
///     swift run -c release --package-path Benchmarks gpu-bench /tmp/gpu-corpus --threads 2
@main struct GPUBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpu-bench", abstract: "BC7 encoding of a PNG corpus: PSNR and megapixels per second per quality.")

    @Argument(help: "A folder of PNG files (searched recursively).") var corpus: String
    @Option(help: "Threads the encoder uses.") var threads = 2
    @Option(help: "Qualities to run, comma-separated (fast, medium, thorough).") var qualities = "fast,medium,thorough"
    @Option(help: "Encode each image this many times; the fastest round counts.") var rounds = 1
    @Flag(help: "Weight colour error evenly, not by alpha (for textures whose transparent colour matters).") var straightColor = false

    func run() throws {
        let paths = try pngFiles(under: corpus)
        guard !paths.isEmpty else { throw ValidationError("no .png files under \(corpus)") }
        let chosen = try qualities.split(separator: ",").map { name in
            guard let quality = EncoderQuality(rawValue: String(name)) else { throw ValidationError("unknown quality \(name)") }
            return quality
        }
        let images = try paths.map { path in
            RGBAImage(try PNGDecoder.decode(AssetBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))))
        }
        let names = paths.map { String($0.dropFirst(corpus.count).drop { $0 == "/" }) }
        let megapixels = Double(images.reduce(0) { $0 + $1.width * $1.height }) / 1e6
        print(
            String(
                format: "%d images, %.1f Mpx, %d threads, colour %@", images.count, megapixels, threads,
                straightColor ? "weighted evenly" : "weighted by alpha"))
        var baseline: (seconds: Double, meanSquaredError: Double)?
        for quality in chosen {
            let encoder = BC7Encoder(options: .init(quality: quality, weightsColorByAlpha: !straightColor, threads: threads))
            var seconds = 0.0
            var results: [(name: String, comparison: ImageQuality.Comparison)] = []
            for (name, image) in zip(names, images) {
                var fastest = Double.infinity
                var blocks: [UInt8] = []
                for _ in 0..<max(rounds, 1) {
                    let start = ContinuousClock.now
                    blocks = encoder.encode(image)
                    let elapsed = ContinuousClock.now - start
                    fastest = min(fastest, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                }
                seconds += fastest
                let decoded = try BlockDecoder.decode(blocks, format: .bc7, width: image.width, height: image.height)
                results.append((name, try ImageQuality.compare(image, decoded, over: .premultipliedRGBA)))
            }
            let psnrs = results.map { min($0.comparison.psnr, 99) }
            let worst = results.min { $0.comparison.psnr < $1.comparison.psnr }!
            let worstBlock = results.max { $0.comparison.worstBlockMeanSquaredError < $1.comparison.worstBlockMeanSquaredError }!
            let meanSquaredError = results.reduce(0) { $0 + $1.comparison.meanSquaredError } / Double(results.count)
            print(
                String(
                    format: "%-8@ mean %.2f dB, min %.2f dB (%@), worst block %.1f dB (%@ at %d,%d), %.2f Mpx/s",
                    quality.rawValue, psnrs.reduce(0, +) / Double(psnrs.count), worst.comparison.psnr, worst.name,
                    worstBlock.comparison.worstBlockPSNR, worstBlock.name, worstBlock.comparison.worstBlockX, worstBlock.comparison.worstBlockY,
                    megapixels / seconds))
            if let baseline {
                print(
                    String(
                        format: "         against fast: %.2fx the time, %.2fx the mean squared error", seconds / baseline.seconds,
                        meanSquaredError / baseline.meanSquaredError))
            } else {
                baseline = (seconds, meanSquaredError)
            }
            var folders: [String: [Double]] = [:]
            for (result, psnr) in zip(results, psnrs) {
                folders[result.name.split(separator: "/").dropLast().joined(separator: "/"), default: []].append(psnr)
            }
            print(
                "         by folder: "
                    + folders.sorted { $0.key < $1.key }.map { folder, values in
                        String(format: "%@ %.2f (min %.2f)", folder.isEmpty ? "." : folder, values.reduce(0, +) / Double(values.count), values.min()!)
                    }.joined(separator: ", "))
        }
    }
}
