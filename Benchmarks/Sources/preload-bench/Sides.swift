import CBenchSupport
import CBareDecode
import Foundation
import Synchronization
import BenchSupport
@_spi(Diagnostics) import Preload
import PreloadPNG

/// The baseline: `bare_decode_all`, a plain C loop over libpng on `jobs` pthreads, either
/// freeing each image at once or keeping them all (the same work a preloader does).
struct BareSide {
    let paths: [String]
    let jobs: Int
    let keepsImages: Bool

    func measure() -> RunMeasurement {
        let memory = MemoryProbe.start()
        let clock = ContinuousClock.now
        let stats = withCStrings(paths) { bare_decode_all($0, paths.count, Int32(jobs), keepsImages ? 1 : 0) }
        let seconds = (ContinuousClock.now - clock).seconds
        precondition(stats.failures == 0, "bare loop failed on \(stats.failures) files")
        let measurement = memory.finish(seconds: seconds, decodedBytes: Int(stats.decoded_bytes), checksum: stats.checksum)
        bench_release_kept()
        return measurement
    }
}

/// The full pipeline: a coordinator with the PNG plugin, one batch of every file, a progress
/// hook (as a loading screen would have), every texture kept in the asset store.
struct PipelineSide {
    let requests: [AssetRequest]
    let coordinator: PreloadCoordinator
    /// What each measured batch reported about its serial work, in order.
    let diagnostics = SerialWork()

    init(paths: [String], jobs: Int, plugin: any LoaderPlugin = PNGLoader()) throws {
        // BENCH_FOLDER=DIR: one folder request for the corpus DIR (what `preload DIR` plans: the
        // folder walked, then its files planned), instead of a request per file.
        if let folder = ProcessInfo.processInfo.environment["BENCH_FOLDER"] {
            requests = [.folder(folder)]
        } else {
            requests = paths.map { AssetRequest(path: $0) }
        }
        coordinator = try PreloadCoordinator(plugins: [plugin], configuration: .init(maxConcurrentLoads: jobs))
    }

    func measure() -> RunMeasurement {
        let memory = MemoryProbe.start()
        let clock = ContinuousClock.now
        let report = coordinator.preloadAndWait(
            requests, options: PreloadOptions(storesAssets: ProcessInfo.processInfo.environment["NO_STORE"] == nil),
            hooks: PreloadHooks(onProgress: { _ in }))
        let seconds = (ContinuousClock.now - clock).seconds
        let cpuEnd = MemoryProbe.cpuTime(), systemEnd = MemoryProbe.systemTime(), faultsEnd = MemoryProbe.minorFaults()
        precondition(report.everythingLoaded, "pipeline failed: \(report.errors.prefix(3))")
        diagnostics.append(report.diagnostics)
        if ProcessInfo.processInfo.environment["BENCH_PLANNING"] != nil {
            let work = report.results.reduce(0.0) { $0 + $1.duration.seconds }
            print(
                String(
                    format: "  planning %.1f ms of %.1f ms; inside loads %.2f µs per file", report.planning.inSeconds * 1000,
                    report.elapsed.seconds * 1000, work * 1e6 / Double(report.results.count)))
        }
        var checksum: UInt64 = 0
        for result in report.loaded {
            guard let texture = result.outcome.asset as? Texture else { continue }
            checksum &+= texture.pixels.withUnsafeBufferPointer { bench_checksum($0.baseAddress, $0.count) }
        }
        let measurement = memory.finish(
            seconds: seconds, decodedBytes: report.decodedBytes, checksum: checksum, cpuEnd: cpuEnd, systemEnd: systemEnd, faultsEnd: faultsEnd)
        coordinator.assets.unloadAll()
        return measurement
    }
}

/// The ``BatchDiagnostics`` of the pipeline's batches, kept across rounds.
final class SerialWork: Sendable {
    private let reports = Mutex<[BatchDiagnostics]>([])
    func append(_ diagnostics: BatchDiagnostics) { reports.withLock { $0.append(diagnostics) } }
    var all: [BatchDiagnostics] { reports.withLock { $0 } }
}

/// Claims `.png` files and loads nothing: the pipeline's own cost (planning, `stat`, loads on
/// the queue, results, store) without reading or decoding.
struct NullLoader: LoaderPlugin {
    var identifier: String { "null" }
    var assetKind: AssetKind { .data }
    var fileExtensions: Set<String> { ["png"] }

    func load(_ context: LoadContext) throws -> any Asset { DataAsset(bytes: []) }
}

/// The decoder alone: `FileContents.read` and `PNGDecoder.decode` in a plain loop on `jobs`
/// threads, no coordinator. Tells the decode path's cost from the pipeline's.
struct DecoderSide {
    let paths: [String]
    let jobs: Int

    func measure() -> RunMeasurement {
        let memory = MemoryProbe.start()
        let clock = ContinuousClock.now
        let totals = Totals()
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            var bytes = 0
            var checksum: UInt64 = 0
            for index in stride(from: worker, to: paths.count, by: jobs) {
                let texture = try! PNGDecoder.decode(BareFile.read(paths[index])!)
                bytes += texture.pixels.count
                checksum &+= texture.pixels.withUnsafeBufferPointer { bench_checksum($0.baseAddress, $0.count) }
            }
            totals.add(bytes: bytes, checksum: checksum)
        }
        let seconds = (ContinuousClock.now - clock).seconds
        let (bytes, checksum) = totals.value
        return memory.finish(seconds: seconds, decodedBytes: bytes, checksum: checksum)
    }

    private final class Totals: Sendable {
        private let state = Mutex((0, UInt64(0)))
        func add(bytes: Int, checksum: UInt64) {
            state.withLock {
                $0.0 += bytes; $0.1 &+= checksum
            }
        }
        var value: (Int, UInt64) { state.withLock { $0 } }
    }
}

/// Times making the operations `make` returns and running them on a plain `OperationQueue`
/// `jobs` wide, gathered 64 at a time into one completion operation (the coordinator's fan-in).
func runQueued(jobs: Int, _ make: () -> [Operation]) -> RunMeasurement {
    let memory = MemoryProbe.start()
    let clock = ContinuousClock.now
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = jobs
    let operations = make()
    let completion = BlockOperation {}
    var start = 0
    var gatherers: [Operation] = []
    while start < operations.count {
        let gatherer = BlockOperation {}
        for operation in operations[start..<min(start + 64, operations.count)] { gatherer.addDependency(operation) }
        completion.addDependency(gatherer)
        gatherers.append(gatherer)
        start += 64
    }
    queue.addOperations(operations + gatherers + [completion], waitUntilFinished: false)
    completion.waitUntilFinished()
    let seconds = (ContinuousClock.now - clock).seconds
    return memory.finish(seconds: seconds, decodedBytes: 0, checksum: 0)
}
