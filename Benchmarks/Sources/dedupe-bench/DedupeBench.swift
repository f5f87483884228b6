import ArgumentParser
import BenchSupport
import Foundation
import Preload
import PreloadBaked
import PreloadPNG
import PreloadPack
import Synchronization

/// One batch of many requests for the same file or entry (issue 50, "Scale"): each should cost
/// what a fresh request costs, and the file should load once.
///
///     dedupe-bench PATH... --count 10000            # the paths in turn, 10,000 requests
///     dedupe-bench --distinct CORPUS --count 10000  # the first 10,000 PNGs of CORPUS, once each
///
/// Prints the requests, the plugin calls, the loaded outcomes, the store names found, the batch's
/// wall time and CPU per request, and the process's peak RSS (run one mode per process).
@main
struct DedupeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dedupe-bench", abstract: "Many requests for one file or entry against as many different files.")

    @Argument(help: "Paths to request in turn (a loose file, PACK#ENTRY, a spelling of either).")
    var paths: [String] = []

    @Option(help: "Request the first COUNT .png files of this folder instead, once each.")
    var distinct: String?

    @Option(help: "Requests in the batch.")
    var count = 10_000

    @Option(help: "Store names: 'path' (the default, each request's path) or 'unique' (one name per request).")
    var names = "path"

    @Option(help: "'png' (the PNG plugin, counted) or 'null' (a counted plugin that loads nothing: the engine's own cost).")
    var plugin = "png"

    @Option(name: .shortAndLong, help: "Threads.")
    var jobs = 2

    @Option(help: "Batches, one after another (the first warms up; the last is reported).")
    var rounds = 1

    func run() throws {
        let chosen: [String]
        if let distinct {
            chosen = Array(try pngFiles(under: distinct).prefix(count))
            guard chosen.count == count else { throw ValidationError("only \(chosen.count) PNGs under \(distinct)") }
        } else {
            guard !paths.isEmpty else { throw ValidationError("give paths or --distinct") }
            chosen = (0..<count).map { paths[$0 % paths.count] }
        }
        let requests = chosen.indices.map { index in
            AssetRequest(path: chosen[index], name: names == "unique" ? "request-\(index)" : nil)
        }
        let counted = CountingLoader(counting: plugin == "null" ? nil : PNGLoader())
        let coordinator = try PreloadCoordinator(
            plugins: [counted, PackLoader(), BakedPackLoader()], configuration: .init(maxConcurrentLoads: jobs))
        var report: PreloadReport?
        var seconds = 0.0, cpu = 0.0
        for _ in 0..<rounds {
            coordinator.assets.unloadAll()
            counted.calls.withLock { $0 = 0 }
            let cpuStart = MemoryProbe.cpuTime()
            let clock = ContinuousClock.now
            report = coordinator.preloadAndWait(requests, options: PreloadOptions(), hooks: PreloadHooks(onProgress: { _ in }))
            seconds = (ContinuousClock.now - clock).seconds
            cpu = MemoryProbe.cpuTime() - cpuStart
        }
        guard let report else { return }
        var buffers = Set<UInt>()
        for result in report.results {
            guard let texture = result.outcome.asset as? Texture else { continue }
            _ = texture.pixels.withUnsafeBufferPointer { buffers.insert(UInt(bitPattern: $0.baseAddress)) }
        }
        let named = Set(requests.map { $0.name }).filter { coordinator.assets.asset(named: $0) != nil }.count
        print(
            String(
                format:
                    "requests %d  plugin calls %d  loaded %d  failed %d  distinct pixel buffers %d  store names %d of %d  wall %.1f ms  CPU %.2f µs per request  peak RSS %.1f MB",
                requests.count, counted.calls.withLock { $0 }, report.loaded.count, report.failed.count, buffers.count, named,
                Set(requests.map(\.name)).count, seconds * 1000, cpu * 1e6 / Double(requests.count),
                Double(MemoryProbe.status("VmHWM")) / 1e6))
        if let failure = report.failed.first { print("first failure: \(failure.outcome.error!)") }
    }
}

/// Claims `.png` files and counts its loads: through the PNG plugin, or loading nothing.
final class CountingLoader: LoaderPlugin, Sendable {
    let calls = Mutex(0)
    let inner: PNGLoader?
    init(counting inner: PNGLoader?) { self.inner = inner }

    var identifier: String { "counted-png" }
    var assetKind: AssetKind { inner == nil ? .data : .texture }
    var fileExtensions: Set<String> { ["png"] }

    func load(_ context: LoadContext) throws -> any Asset {
        calls.withLock { $0 += 1 }
        guard let inner else { return DataAsset(bytes: []) }
        return try inner.load(context)
    }
}
