import ArgumentParser
import BenchSupport
import Foundation
import Preload

/// Decodes one corpus through the full Preload pipeline and through bare C libpng loops, in one
/// process, on the same number of threads, rotating which side goes first each round, and
/// prints each side's throughput, the ratios, page faults and peak memory.
///
/// Two baselines: `bare-free` is the classic decode loop (each image freed at once, so it keeps
/// rewriting one warm buffer); `bare-keep` keeps every image, which is the work a preloader
/// does. The pipeline is compared with both.
@main
struct PreloadBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preload-bench",
        abstract: "Pipeline vs bare libpng loops: throughput ratios and peak memory, measured in one run.")

    @OptionGroup var options: CorpusOptions

    @Option(
        help:
            "Run only this side (bare-free, bare-keep, pipeline; diagnostics: pipeline-overhead, the pipeline with a plugin that loads nothing, read-only, a C loop that only opens, stats, reads and closes each file, bookkeeping, those two in turn and their difference per asset, decoder, the Swift decode path without the pipeline, and corelibs-floor, minimal operations with no Preload code), e.g. under a profiler."
    )
    var only: String?

    @Option(help: .hidden)
    var memoryProbe: String?

    func run() throws {
        let paths = try pngFiles(under: options.corpus)
        guard !paths.isEmpty else { throw ValidationError("no .png files under \(options.corpus)") }
        let onDisk = paths.reduce(0) { $0 + (BareFile.read($1)?.count ?? 0) }
        print("corpus: \(paths.count) files, \(megabytes(Int(onDisk))) MB on disk, jobs: \(options.jobs), rounds: \(options.rounds)")
        // (reading every file for its size warmed the page cache for every side)

        let pipeline = try PipelineSide(paths: paths, jobs: options.jobs)
        let sides: [(name: String, measure: () -> RunMeasurement)] = [
            ("bare-free", BareSide(paths: paths, jobs: options.jobs, keepsImages: false).measure),
            ("bare-keep", BareSide(paths: paths, jobs: options.jobs, keepsImages: true).measure),
            ("pipeline", pipeline.measure),
        ]
        if memoryProbe == "start-up" {
            // Child process of the memory report: the process as every side starts (corpus listed).
            print(MemoryProbe.status("VmHWM"), 0)
            return
        }
        if let memoryProbe, let side = sides.first(where: { $0.name == memoryProbe }) {
            // Child process of the memory report: one run, then the process's peak RSS.
            let measurement = side.measure()
            print(MemoryProbe.status("VmHWM"), measurement.decodedBytes)
            return
        }
        if only == "bookkeeping" {
            try BookkeepingMeasurement(paths: paths, jobs: options.jobs, rounds: options.rounds).run()
            return
        }
        if let only {
            let diagnostic: [(name: String, measure: () -> RunMeasurement)] = [
                ("pipeline-overhead", try PipelineSide(paths: paths, jobs: options.jobs, plugin: NullLoader()).measure),
                ("read-only", ReadOnlySide(paths: paths, jobs: options.jobs).measure),
                ("decoder", DecoderSide(paths: paths, jobs: options.jobs).measure),
                ("corelibs-floor", CorelibsFloorSide(count: paths.count, jobs: options.jobs).measure),
            ]
            guard let side = (sides + diagnostic).first(where: { $0.name == only }) else {
                throw ValidationError("no side \(only)")
            }
            for round in 1...options.rounds {
                let measurement = side.measure()
                print(
                    String(
                        format: "round %d: %@ %.1f MB/s, %.1f ms, CPU %.2f µs per file", round, only,
                        measurement.throughput, measurement.seconds * 1000, measurement.cpuSeconds * 1e6 / Double(paths.count)))
            }
            return
        }
        // Warm-up (threads, allocator, lazy initialisation), which is also each side's cold first
        // pass: nothing freed yet for the pipeline's memory pool to reuse.
        let cold = sides.map { $0.measure() }
        print(
            "first pass (cold): "
                + sides.indices.map { index in
                    String(format: "%@ %6.1f MB/s (%5d faults)", sides[index].name, cold[index].throughput, cold[index].pageFaults)
                }.joined(separator: "  "))

        var runs = [[RunMeasurement]](repeating: [], count: sides.count)
        for round in 0..<options.rounds {
            for step in 0..<sides.count {
                let index = (round + step) % sides.count  // rotate who goes first
                runs[index].append(sides[index].measure())
            }
            let line = sides.indices.map { index in
                String(
                    format: "%@ %6.1f MB/s (%5d faults, CPU %5.1f µs/file)", sides[index].name, runs[index][round].throughput,
                    runs[index][round].pageFaults, runs[index][round].cpuSeconds * 1e6 / Double(paths.count))
            }.joined(separator: "  ")
            print("round \(round + 1): \(line)")
        }
        try checkSamePixels(runs)

        let decoded = runs[2][0].decodedBytes
        print("decoded: \(megabytes(decoded)) MB per round, identical pixels on every side")
        print("peak RSS of a fresh process doing one run of each side (allocator state in this one is shared):")
        let startUp = try peakResidentOfChild(side: "start-up")
        print(String(format: "start-up  peak RSS %6.1f MB (the process with its corpus listed, before any side runs)", Double(startUp) / 1e6))
        for index in sides.indices {
            let peak = try peakResidentOfChild(side: sides[index].name)
            print(
                String(
                    format: "%-9@ median %6.1f MB/s   peak RSS %6.1f MB = %.2fx the decoded bytes, %.2fx above start-up",
                    sides[index].name, median(runs[index].map(\.throughput)), Double(peak) / 1e6,
                    Double(peak) / Double(decoded), Double(peak - startUp) / Double(decoded)))
        }
        for baseline in 0..<2 {
            let ratios = zip(runs[2], runs[baseline]).map { $0.throughput / $1.throughput }
            print(
                String(
                    format: "ratio pipeline/%@: median %.3f (min %.3f, max %.3f)", sides[baseline].name,
                    median(ratios), ratios.min()!, ratios.max()!))
        }
        ScalingProjection(
            files: paths.count, jobs: options.jobs, bareFree: runs[0], pipeline: runs[2], serial: pipeline.diagnostics.all,
            queuePerOperation: queueCostPerOperation(files: paths.count)
        ).print()
    }

    /// What corelibs' queue costs per operation here (`--only corelibs-floor`: one minimal
    /// asynchronous operation per file, queued with the pipeline's fan-in, no work): its
    /// scheduling is serial inside the queue, whatever the number of threads.
    private func queueCostPerOperation(files: Int) -> Double {
        median((0..<options.rounds).map { _ in CorelibsFloorSide(count: files, jobs: options.jobs).measure().seconds }) / Double(files)
    }

    /// Runs this benchmark again as a child process measuring one side once; returns its peak RSS.
    private func peakResidentOfChild(side: String) throws -> Int {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [options.corpus, "--jobs", "\(options.jobs)", "--memory-probe", side]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let fields = text.split(separator: "\n").last?.split(separator: " ").compactMap { Int($0) } ?? []
        guard child.terminationStatus == 0, fields.count == 2 else {
            throw ValidationError("memory probe for \(side) failed: \(text)")
        }
        return fields[0]
    }

    private func checkSamePixels(_ runs: [[RunMeasurement]]) throws {
        let reference = runs[0][0]
        for measurement in runs.joined()
        where measurement.decodedBytes != reference.decodedBytes || measurement.checksum != reference.checksum {
            throw ValidationError("the sides decoded different pixels: \(measurement) vs \(reference)")
        }
    }
}
