import ArgumentParser
import BenchSupport
import Foundation
import PreloadPack

/// One inflate side measured in a process of its own.
enum InflateChild {
    /// What a child reports: the median of its measured passes.
    struct Result: CustomStringConvertible {
        var throughput: Double
        var cpuMilliseconds: Double
        var pageFaults: Int
        var bytes: Int
        var checksum: UInt64
        /// The child's first pass, in a fresh process: nothing freed yet to reuse.
        var firstThroughput: Double
        var firstPageFaults: Int

        var description: String { "\(bytes) bytes, checksum \(checksum)" }
    }

    static let passes = 3

    static func sides(pack: String, index: PackIndex, jobs: Int) throws -> [(name: String, measure: () -> RunMeasurement)] {
        [
            ("bare-free", BareInflateSide(pack: pack, index: index, jobs: jobs, keeps: false).measure),
            ("bare-keep", BareInflateSide(pack: pack, index: index, jobs: jobs, keeps: true).measure),
            ("pipeline", try PipelineInflateSide(pack: pack, jobs: jobs).measure),
        ]
    }

    /// In the child: a first (cold) pass, then `passes` measured ones; prints one `result` line
    /// with the median measured pass and the first one.
    static func run(side name: String, pack: String, jobs: Int) throws {
        guard let side = try sides(pack: pack, index: try PackLoader().index(of: pack), jobs: jobs).first(where: { $0.name == name }) else {
            throw ValidationError("no side \(name)")
        }
        let first = side.measure()
        let runs = (0..<passes).map { _ in side.measure() }
        let middle = runs.sorted { $0.throughput < $1.throughput }[passes / 2]
        print(
            "result \(middle.throughput) \(middle.cpuSeconds * 1000) \(middle.pageFaults) \(middle.decodedBytes) \(middle.checksum) \(first.throughput) \(first.pageFaults)"
        )
    }

    /// In the parent: runs this benchmark as a child measuring `side`.
    static func spawn(side: String, pack: String, jobs: Int) throws -> Result {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["-", "--child", side, "--pack", pack, "--jobs", "\(jobs)"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let fields = text.split(separator: "\n").last { $0.hasPrefix("result ") }?.split(separator: " ").dropFirst() ?? []
        let field = { (index: Int) in fields.count == 7 ? String(fields[fields.startIndex + index]) : "" }
        guard child.terminationStatus == 0, let throughput = Double(field(0)), let cpu = Double(field(1)), let faults = Int(field(2)),
            let bytes = Int(field(3)), let checksum = UInt64(field(4)), let first = Double(field(5)), let firstFaults = Int(field(6))
        else { throw ValidationError("the \(side) child failed: \(text)") }
        return Result(
            throughput: throughput, cpuMilliseconds: cpu, pageFaults: faults, bytes: bytes, checksum: checksum,
            firstThroughput: first, firstPageFaults: firstFaults)
    }
}
