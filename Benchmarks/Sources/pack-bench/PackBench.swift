import ArgumentParser
import BenchSupport
import Foundation
import PreloadAuthoring
import Preload
import PreloadPack

/// Packs a corpus (every regular file below it) with `PakWriter` (1 job against `--jobs`, same bytes required), then reads the pack
/// through the full pipeline and through bare C zlib loops on the same number of threads, and
/// prints throughputs and ratios. Each inflate measurement runs in a fresh child process (a
/// warm-up pass, then the median of three), sides rotating who goes first each round: in one
/// shared process the sides' heaps disturbed each other by more than the differences measured.
@main
struct PackBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack-bench",
        abstract: "pack create speed-up (1 vs N jobs) and pipeline vs bare zlib inflate throughput, measured in one run.")

    @OptionGroup var options: CorpusOptions

    @Option(help: "zlib level for the pack.")
    var level = 6

    @Option(help: "Skip the create timing and run only this inflate side (bare-free, bare-keep, pipeline), e.g. under a profiler.")
    var only: String?

    @Option(help: .hidden)
    var child: String?

    @Option(help: .hidden)
    var pack: String?

    func run() throws {
        if let child, let pack {
            return try InflateChild.run(side: child, pack: pack, jobs: options.jobs)
        }
        let sources = try PakWriter.sources(in: options.corpus)
        let onDisk = sources.reduce(0) { $0 + fileSize($1.path) }
        print("corpus: \(sources.count) files, \(megabytes(onDisk)) MB, jobs: \(options.jobs), rounds: \(options.rounds), level: \(level)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pack-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let pack = scratch + "/corpus.pak"
        if only == nil {
            try measureCreate(sources, into: scratch, finalPack: pack)
        } else {
            _ = try PakWriter.write(sources, to: pack, level: level, jobs: options.jobs)
        }
        try measureInflate(pack)
    }

    private func measureCreate(_ sources: [PakWriter.Source], into scratch: String, finalPack: String) throws {
        let single = CreateSide(sources: sources, output: scratch + "/one.pak", level: level, jobs: 1)
        let parallel = CreateSide(sources: sources, output: finalPack, level: level, jobs: options.jobs)
        _ = try single.measure()  // warm-up: page cache, threads
        var ratios: [Double] = []
        for round in 0..<options.rounds {
            let sides = round % 2 == 0 ? [single, parallel] : [parallel, single]
            let results = try sides.map { try $0.measure() }
            guard results[0].bytes == results[1].bytes else { throw ValidationError("1 and \(options.jobs) jobs wrote different packs") }
            let (one, many) = round % 2 == 0 ? (results[0].seconds, results[1].seconds) : (results[1].seconds, results[0].seconds)
            ratios.append(one / many)
            print(
                String(
                    format: "create round %d: 1 job %.1f ms, %d jobs %.1f ms, speed-up %.2fx", round + 1, one * 1000, options.jobs, many * 1000,
                    one / many))
        }
        let packed = fileSize(finalPack)
        print(
            String(
                format: "pack create speed-up 1 -> %d jobs: median %.2fx (min %.2f, max %.2f); identical bytes; pack %@ MB",
                options.jobs, median(ratios), ratios.min()!, ratios.max()!, megabytes(Int(packed))))
    }

    private func measureInflate(_ pack: String) throws {
        let index = try PackLoader().index(of: pack)
        let compressed = index.entries.filter { $0.method != .stored }
        let stored = compressed.reduce(UInt64(0)) { $0 + $1.storedSize }, raw = compressed.reduce(UInt64(0)) { $0 + ($1.rawSize ?? 0) }
        print("pack: \(index.entries.count) entries, \(compressed.count) compressed (\(megabytes(Int(stored))) MB -> \(megabytes(Int(raw))) MB)")
        let names = ["bare-free", "bare-keep", "pipeline"]
        if let only {
            guard let side = try InflateChild.sides(pack: pack, index: index, jobs: options.jobs).first(where: { $0.name == only }) else {
                throw ValidationError("no side \(only)")
            }
            for round in 1...options.rounds {
                let run = side.measure()
                print(String(format: "round %d: %@ %.1f MB/s, CPU %.0f ms", round, only, run.throughput, run.cpuSeconds * 1000))
            }
            return
        }
        var runs = [[InflateChild.Result]](repeating: [], count: names.count)
        for round in 0..<options.rounds {
            for step in 0..<names.count {
                let side = (round + step) % names.count
                runs[side].append(try InflateChild.spawn(side: names[side], pack: pack, jobs: options.jobs))
            }
            print(
                "inflate round \(round + 1): "
                    + names.indices.map { side in
                        String(
                            format: "%@ %6.1f MB/s (CPU %.0f ms, %d faults)", names[side], runs[side][round].throughput,
                            runs[side][round].cpuMilliseconds, runs[side][round].pageFaults)
                    }.joined(separator: "  "))
        }
        let reference = runs[0][0]
        for result in runs.joined() where result.bytes != reference.bytes || result.checksum != reference.checksum {
            throw ValidationError("the sides read different bytes: \(result) vs \(reference)")
        }
        print("raw: \(megabytes(reference.bytes)) MB per pass, identical bytes on every side")
        for side in names.indices {
            print(String(format: "%-9@ median %7.1f MB/s", names[side], median(runs[side].map(\.throughput))))
        }
        for baseline in 0..<2 {
            let ratios = zip(runs[2], runs[baseline]).map { $0.throughput / $1.throughput }
            print(
                String(format: "ratio pipeline/%@: median %.3f (min %.3f, max %.3f)", names[baseline], median(ratios), ratios.min()!, ratios.max()!))
        }
        // Each child's first pass: a fresh process, so the pipeline has no released memory to reuse.
        for baseline in 0..<2 {
            let ratios = zip(runs[2], runs[baseline]).map { $0.firstThroughput / $1.firstThroughput }
            print(
                String(
                    format: "first pass (cold), pipeline/%@: median %.3f (min %.3f, max %.3f); faults %d vs %d", names[baseline],
                    median(ratios), ratios.min()!, ratios.max()!, Int(median(runs[2].map { Double($0.firstPageFaults) })),
                    Int(median(runs[baseline].map { Double($0.firstPageFaults) }))))
        }
    }
}

/// The size of the file at `path` in bytes (0 if it cannot be read).
func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}
