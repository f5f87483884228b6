import CBenchSupport
import BenchSupport
import CBareInflate
import Foundation
import PreloadAuthoring
import Preload
import PreloadPack

/// The baseline: `bare_inflate_all`, zlib's one-shot `uncompress` per entry on `jobs` pthreads,
/// each result freed at once or all kept (the work a preloader does).
struct BareInflateSide {
    let pack: String
    let entries: [bare_pack_entry]
    let jobs: Int
    let keeps: Bool

    init(pack: String, index: PackIndex, jobs: Int, keeps: Bool) {
        self.pack = pack
        entries = index.entries.map { entry in
            bare_pack_entry(offset: entry.offset, stored: entry.storedSize, raw: entry.rawSize ?? 0, method: entry.method == .stored ? 0 : 1)
        }
        self.jobs = jobs
        self.keeps = keeps
    }

    func measure() -> RunMeasurement {
        let memory = MemoryProbe.start()
        let clock = ContinuousClock.now
        let stats = entries.withUnsafeBufferPointer { bare_inflate_all(pack, $0.baseAddress, $0.count, Int32(jobs), keeps ? 1 : 0) }
        let seconds = (ContinuousClock.now - clock).seconds
        precondition(stats.failures == 0, "bare loop failed on \(stats.failures) entries")
        let measurement = memory.finish(seconds: seconds, decodedBytes: Int(stats.raw_bytes), checksum: stats.checksum)
        bench_release_kept()
        return measurement
    }
}

/// The pipeline: a coordinator with only the pack plugin (so every entry is delivered as raw
/// data: this measures reading, inflating and verifying, not decoding PNGs), one request for the
/// pack, a progress hook, every entry kept in the asset store.
struct PipelineInflateSide {
    let pack: String
    let coordinator: PreloadCoordinator

    init(pack: String, jobs: Int) throws {
        self.pack = pack
        coordinator = try PreloadCoordinator(plugins: [PackLoader()], configuration: .init(maxConcurrentLoads: jobs))
    }

    func measure() -> RunMeasurement {
        let memory = MemoryProbe.start()
        let clock = ContinuousClock.now
        let report = coordinator.preloadAndWait([AssetRequest(path: pack)], hooks: PreloadHooks(onProgress: { _ in }))
        let seconds = (ContinuousClock.now - clock).seconds
        precondition(report.everythingLoaded, "pipeline failed: \(report.errors.prefix(3))")
        var bytes = 0
        var checksum: UInt64 = 0
        for result in report.allResults where result.isDependency {
            guard let data = result.outcome.asset as? DataAsset else { continue }
            bytes += data.bytes.count
            checksum &+= data.bytes.withUnsafeBufferPointer { bench_checksum($0.baseAddress, $0.count) }
        }
        let measurement = memory.finish(seconds: seconds, decodedBytes: bytes, checksum: checksum)
        coordinator.assets.unloadAll()
        return measurement
    }
}

/// `pack create` itself, timed with 1 and with `jobs` compressing threads.
struct CreateSide {
    let sources: [PakWriter.Source]
    let output: String
    let level: Int
    let jobs: Int

    /// Seconds to write the pack, and its bytes (to check every job count writes the same file).
    func measure() throws -> (seconds: Double, bytes: Data) {
        let clock = ContinuousClock.now
        _ = try PakWriter.write(sources, to: output, level: level, jobs: jobs)
        let seconds = (ContinuousClock.now - clock).seconds
        return (seconds, try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}
