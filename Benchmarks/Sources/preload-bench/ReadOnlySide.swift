import BenchSupport
import CBareDecode
import Foundation

/// The floor under any loader of loose files: `bare_read_all`, a C loop on `jobs` pthreads that
/// opens, stats, reads and closes each file (then frees its bytes) and does nothing else.
///
/// `pipeline-overhead` minus this side is the engine's own bookkeeping per asset: planning,
/// loads on the queue, recording, the store, progress and the report, without the system calls
/// every loader makes and without decoding.
struct ReadOnlySide {
    let paths: [String]
    let jobs: Int

    func measure() -> RunMeasurement {
        let memory = MemoryProbe.start()
        let clock = ContinuousClock.now
        let stats = withCStrings(paths) { bare_read_all($0, paths.count, Int32(jobs)) }
        let seconds = (ContinuousClock.now - clock).seconds
        precondition(stats.failures == 0, "the read-only loop failed on \(stats.failures) files")
        return memory.finish(seconds: seconds, decodedBytes: Int(stats.decoded_bytes), checksum: stats.checksum)
    }
}

/// The engine's bookkeeping per asset, measured in one run: each round runs the pipeline with a
/// plugin that loads nothing (`pipeline-overhead`) and the read-only loop, rotating which goes
/// first, and prints both sides' CPU per file and their difference.
struct BookkeepingMeasurement {
    let paths: [String]
    let jobs: Int
    let rounds: Int

    func run() throws {
        let sides: [(name: String, measure: () -> RunMeasurement)] = [
            ("pipeline-overhead", try PipelineSide(paths: paths, jobs: jobs, plugin: NullLoader()).measure),
            ("read-only", ReadOnlySide(paths: paths, jobs: jobs).measure),
        ]
        for side in sides { _ = side.measure() }  // warm-up: threads, allocator, page cache
        var cpu: [[Double]] = [[], []]
        var system: [[Double]] = [[], []]
        var faults: [[Double]] = [[], []]
        var wall: [[Double]] = [[], []]
        let files = Double(paths.count)
        for round in 0..<rounds {
            for step in sides.indices {
                let index = (round + step) % sides.count
                let measurement = sides[index].measure()
                cpu[index].append(measurement.cpuSeconds * 1e6 / files)
                system[index].append(measurement.systemSeconds * 1e6 / files)
                faults[index].append(Double(measurement.pageFaults) / files)
                wall[index].append(measurement.seconds * 1000)
            }
            print(
                String(
                    format: "round %d: pipeline-overhead CPU %.2f µs/file (%.1f ms)  read-only CPU %.2f µs/file (%.1f ms)  bookkeeping %.2f µs/asset",
                    round + 1, cpu[0][round], wall[0][round], cpu[1][round], wall[1][round], cpu[0][round] - cpu[1][round]))
        }
        let differences = zip(cpu[0], cpu[1]).map { $0 - $1 }
        print(
            String(
                format: "bookkeeping = pipeline-overhead - read-only: median %.2f µs CPU per asset (min %.2f, max %.2f); "
                    + "sides' medians %.2f and %.2f µs/file",
                median(differences), differences.min()!, differences.max()!, median(cpu[0]), median(cpu[1])))
        let systemDifferences = zip(system[0], system[1]).map { $0 - $1 }
        print(
            String(
                format: "  of which in the kernel: median %.2f µs per asset (sides %.2f and %.2f); page faults per asset: %.3f and %.3f",
                median(systemDifferences), median(system[0]), median(system[1]), median(faults[0]), median(faults[1])))
    }
}
