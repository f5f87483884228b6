import ArgumentParser
import BenchSupport
import Foundation
import Preload
import PreloadAtlas
import PreloadAuthoring
import PreloadBaked
import PreloadPNG
import PreloadPack

/// Bakes a corpus of PNGs (`BakeWriter`, as `preload bake` does), then loads it four ways, each
/// in a fresh child process (a warm-up pass, then the median of three; sides rotate who goes
/// first): the bare C libpng loop over the PNGs, the baked pack through the full pipeline
/// (verified, and trusted), and a bare "map the pack and CRC every byte" loop. Prints
/// throughputs, ratios and the baked side's peak memory against the decoded bytes.
@main
struct BakeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bake-bench", abstract: "Baked pack load vs bare libpng decode and vs bare map + CRC, measured in one run.")

    @OptionGroup var options: CorpusOptions

    @Option(help: .hidden)
    var child: String?

    @Option(help: .hidden)
    var pack: String?

    static let names = ["bare-decode", "baked", "baked-trusted", "map-crc"]

    func run() throws {
        let paths = try pngFiles(under: options.corpus)
        if let child, let pack { return try Self.runChild(side: child, pack: pack, paths: paths, jobs: options.jobs) }
        guard !paths.isEmpty else { throw ValidationError("no .png files under \(options.corpus)") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bake-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let pack = scratch + "/corpus.bake"
        let coordinator = try PreloadCoordinator(plugins: [PNGLoader()], configuration: .init(maxConcurrentLoads: options.jobs))
        let report = coordinator.preloadAndWait(
            paths.enumerated().map { AssetRequest(path: $1, name: "png/\($0)") }, options: PreloadOptions(storesAssets: false))
        let summary = try BakeWriter.write(report, to: pack)
        print("corpus: \(paths.count) PNGs; \(summary); jobs: \(options.jobs), rounds: \(options.rounds)")

        var runs = [[RunMeasurement]](repeating: [], count: Self.names.count)
        for round in 0..<options.rounds {
            for step in Self.names.indices {
                let side = (round + step) % Self.names.count
                runs[side].append(try Self.spawn(side: Self.names[side], pack: pack, corpus: options.corpus, jobs: options.jobs))
            }
            print(
                "round \(round + 1): "
                    + Self.names.indices.map { String(format: "%@ %.1f ms", Self.names[$0], runs[$0][round].seconds * 1000) }.joined(separator: "  "))
        }
        let reference = runs[0][0]
        for run in runs[1...2].joined() where run.checksum != reference.checksum || run.decodedBytes != reference.decodedBytes {
            throw ValidationError("the baked side's pixels differ from libpng's: \(run) vs \(reference)")
        }
        print("decoded: \(megabytes(reference.decodedBytes)) MB per pass; the baked pixels equal libpng's on every run")
        for side in Self.names.indices {
            print(
                String(
                    format: "%-13@ median %7.1f ms, CPU %6.1f ms, peak growth %6.1f MB", Self.names[side], median(runs[side].map(\.seconds)) * 1000,
                    median(runs[side].map(\.cpuSeconds)) * 1000, median(runs[side].map { Double($0.peakGrowth) }) / 1e6))
        }
        for (side, baseline, target) in [(1, 0, "≥ 6"), (2, 0, ""), (1, 3, "≥ 0.5"), (2, 3, "")] {
            let ratios = zip(runs[baseline], runs[side]).map { $0.seconds / $1.seconds }
            print(
                String(
                    format: "speed %@ vs %@: median %.2fx (min %.2f, max %.2f)%@", Self.names[side], Self.names[baseline], median(ratios),
                    ratios.min()!, ratios.max()!, target.isEmpty ? "" : ", target \(target)"))
        }
        let growth = median(runs[1].map { Double($0.peakGrowth) })
        print(
            String(
                format: "baked peak growth %.1f MB = decoded %.1f MB + %.1f MiB (target: + at most 40 MiB)", growth / 1e6,
                Double(reference.decodedBytes) / 1e6, (growth - Double(reference.decodedBytes)) / 1048576))
    }

    /// In the child: a warm-up pass, then three measured; prints the median as one `result` line.
    static func runChild(side name: String, pack: String, paths: [String], jobs: Int) throws {
        let measure: () -> RunMeasurement
        switch name {
        case "bare-decode": measure = BareDecodeSide(paths: paths, jobs: jobs).measure
        case "baked": measure = try BakedSide(pack: pack, jobs: jobs, trusts: false).measure
        case "baked-trusted": measure = try BakedSide(pack: pack, jobs: jobs, trusts: true).measure
        case "map-crc": measure = MapAndCRCSide(pack: pack, jobs: jobs).measure
        default: throw ValidationError("no side \(name)")
        }
        _ = measure()
        let runs = (0..<3).map { _ in measure() }.sorted { $0.seconds < $1.seconds }
        let middle = runs[1]
        print("result \(middle.seconds) \(middle.cpuSeconds) \(middle.peakGrowth) \(middle.decodedBytes) \(middle.checksum)")
    }

    /// In the parent: runs this benchmark as a child measuring `side`.
    static func spawn(side: String, pack: String, corpus: String, jobs: Int) throws -> RunMeasurement {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [corpus, "--child", side, "--pack", pack, "--jobs", "\(jobs)"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let fields = (text.split(separator: "\n").last { $0.hasPrefix("result ") }?.split(separator: " ").dropFirst()).map(Array.init) ?? []
        guard child.terminationStatus == 0, fields.count == 5, let seconds = Double(fields[0]), let cpu = Double(fields[1]),
            let growth = Int(fields[2]), let bytes = Int(fields[3]), let checksum = UInt64(fields[4])
        else { throw ValidationError("the \(side) child failed: \(text)") }
        return RunMeasurement(
            seconds: seconds, decodedBytes: bytes, checksum: checksum, peakResident: 0, peakGrowth: growth, pageFaults: 0, cpuSeconds: cpu)
    }
}
