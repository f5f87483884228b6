import ArgumentParser
import BenchSupport
import Foundation
import Preload
import PreloadGPU
import PreloadPNG

/// ASTC 4x4 on a corpus of PNGs, PreloadGPU's ``ASTCEncoder`` at each quality against Debian's
/// `astcenc` command at `-medium`, in one run: quality as PSNR over premultiplied RGBA (each
/// image's, then the mean and the minimum), speed as megapixels a second of encoding alone
/// (the command's own "Coding time"; its whole run per file, PNG reading and process start
/// included, is printed too).
///
///     swift run -c release --package-path Benchmarks astc-bench /tmp/gpu-corpus --threads 2
@main
struct ASTCBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "astc-bench", abstract: "PreloadGPU's ASTC encoder vs the astcenc command (4x4): premultiplied PSNR and speed.")

    @Argument(help: "The corpus directory (its PNGs, searched recursively).")
    var corpus: String

    @Option(help: "Threads encoding each image, on both sides.")
    var threads = 2

    @Option(help: "Measure only the first N files (sorted by path).")
    var limit: Int?

    func run() throws {
        var paths = try pngFiles(under: corpus)
        if let limit { paths = Array(paths.prefix(limit)) }
        guard !paths.isEmpty else { throw ValidationError("no .png files under \(corpus)") }
        let command = try AstcencCommand(threads: threads)
        let decoder = try ASTCDecoder(blockSize: .fourByFour, colorSpace: .linear)
        // Linear, as the command's -cl: the same profile on both sides.
        var sides = EncoderQuality.allCases.map { quality in
            Side(name: "ours \(quality.rawValue)", encoder: Result { try ASTCEncoder(quality: quality, colorSpace: .linear, threadCount: threads) })
        }
        sides.append(
            Side(
                name: "ours medium, alpha-weighted",
                encoder: Result { try ASTCEncoder(quality: .medium, colorSpace: .linear, weightsColorByAlpha: true, threadCount: threads) }))
        var reference = Side(name: "astcenc -medium", encoder: nil)
        var sameBlocks = 0
        var pixels = 0
        for path in paths {
            let image = RGBAImage(try PNGDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
            pixels += image.width * image.height
            let theirs = try command.encode(path)
            try reference.record(theirs, of: image, decoder: decoder)
            for index in sides.indices {
                let encoder = try sides[index].encoder!.get()
                let start = ContinuousClock.now
                let blocks = try encoder.encode(image)
                let seconds = (ContinuousClock.now - start).seconds
                try sides[index].record(AstcencCommand.Run(blocks: blocks, codingSeconds: seconds, wallSeconds: seconds), of: image, decoder: decoder)
                if encoder.quality == .medium && !encoder.weightsColorByAlpha && blocks == theirs.blocks { sameBlocks += 1 }
            }
        }
        print(
            "corpus: \(paths.count) PNGs, \(String(format: "%.1f", Double(pixels) / 1e6)) megapixels; 4x4, linear profile, \(threads) threads a side")
        print("PSNR over premultiplied RGBA ((c * a + 127) / 255, 4 channels); speed: encoding alone")
        for side in [reference] + sides { print(side.summary(pixels: pixels, against: reference)) }
        print(
            String(
                format: "astcenc's whole run a file (PNG read, context, write, process): %.2f megapixels/s",
                Double(pixels) / reference.wallSeconds / 1e6))
        print("ours medium wrote astcenc -medium's very blocks for \(sameBlocks) of \(paths.count) images")
        print("target: ours medium mean ≥ 49 dB (the issue's astcenc -medium sample: 51.2 dB)")
    }
}

/// One encoder's results over the corpus.
struct Side {
    let name: String
    let encoder: Result<ASTCEncoder, any Error>?
    var psnrs: [Double] = []
    var codingSeconds = 0.0
    var wallSeconds = 0.0

    /// Adds one image's encoding, decoded with `decoder` and compared with `image`.
    mutating func record(_ run: AstcencCommand.Run, of image: RGBAImage, decoder: ASTCDecoder) throws {
        let decoded = try decoder.decode(run.blocks, width: image.width, height: image.height)
        // 99 dB for an exact image, so that means stay finite.
        psnrs.append(min(99, try ImageQuality.psnr(image, decoded, over: .premultipliedRGBA)))
        codingSeconds += run.codingSeconds
        wallSeconds += run.wallSeconds
    }

    /// A line: mean and minimum PSNR, speed, and both against `reference`.
    func summary(pixels: Int, against reference: Side) -> String {
        let mean = psnrs.reduce(0, +) / Double(psnrs.count)
        let referenceMean = reference.psnrs.reduce(0, +) / Double(reference.psnrs.count)
        let rate = Double(pixels) / codingSeconds / 1e6
        return String(
            format: "%@ PSNR mean %6.2f dB, min %6.2f dB (%+5.2f dB); %7.2f megapixels/s (%5.2fx astcenc's)",
            name.padding(toLength: 28, withPad: " ", startingAt: 0), mean, psnrs.min()!,
            mean - referenceMean, rate, reference.codingSeconds / codingSeconds)
    }
}
