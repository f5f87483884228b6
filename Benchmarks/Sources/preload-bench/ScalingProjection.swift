import BenchSupport
import Foundation
@_spi(Diagnostics) import Preload

/// Projects the pipeline's ratio to bare-free onto more cores than this machine has, from what
/// one run measured (see `docs/benchmarks.md`, "Projecting to many cores").
///
/// The serial part `S` per file is the time the batch spent on one thread or under a lock all
/// workers share (the planning thread, the batch's lock), plus corelibs' own scheduling of the
/// operations it queued (measured per operation here), plus the time under the store's and the
/// memory pool's sharded locks divided by the shards that many workers would use. Everything else a side spends per file
/// (process CPU, all threads) is taken to spread over `N` workers. By Amdahl's law:
///
///     T_pipeline(N) = S + (W_pipeline - S) / N        T_bare(N) = W_bare / N
///
/// and the projected ratio is `T_bare(N) / T_pipeline(N)`. The ceiling is the same with the
/// pipeline's parallel work taken as the bare loop's: what the serial part alone allows.
struct ScalingProjection {
    let files: Int
    let jobs: Int
    let bareFree: [RunMeasurement]
    let pipeline: [RunMeasurement]
    let serial: [BatchDiagnostics]
    let queuePerOperation: Double

    func print() {
        let perFile = { (duration: Duration) in duration.seconds / Double(files) }
        let planning = median(serial.map { perFile($0.planningThread) })
        let batchLock = median(serial.map { perFile($0.batchLockHeld) })
        let storeLock = median(serial.map { perFile($0.storeLockHeld) })
        let memoryLock = median(serial.map { perFile($0.memoryLockHeld) })
        let operations = median(serial.map { Double($0.queuedOperations) })
        let queue = operations * queuePerOperation / Double(files)
        /// Serial work per file with `workers` threads (``BatchDiagnostics/serialTime(workers:)``),
        /// and the queue's.
        func serialTime(_ workers: Int) -> Double {
            median(serial.map { perFile($0.serialTime(workers: workers)) }) + queue
        }
        let bareWork = median(bareFree.map { $0.cpuSeconds / Double(files) })
        let pipelineWork = median(pipeline.map { $0.cpuSeconds / Double(files) })
        Swift.print(
            String(
                format:
                    "serial work per file: %.3f µs at %d jobs, %.3f µs at 16 (planning thread %.3f, batch lock %.3f, queue %.3f: %.0f operations at %.1f µs each; store locks %.3f over %d shards, memory pool locks %.3f over %d shards); CPU per file: bare-free %.2f µs, pipeline %.2f µs",
                serialTime(jobs) * 1e6, jobs, serialTime(16) * 1e6, planning * 1e6, batchLock * 1e6, queue * 1e6, operations,
                queuePerOperation * 1e6, storeLock * 1e6, AssetStore.shards, memoryLock * 1e6, AssetMemory.shards,
                bareWork * 1e6, pipelineWork * 1e6))
        let projected = [2, 8, 16, 32].map { workers -> String in
            let bare = bareWork / Double(workers)
            let serialPart = serialTime(workers)
            let ratio = bare / (serialPart + (pipelineWork - serialPart) / Double(workers))
            let ceiling = bare / (serialPart + bareWork / Double(workers))
            return String(format: "%d jobs %.3f (ceiling %.3f)", workers, ratio, ceiling)
        }
        Swift.print("projected pipeline/bare-free by Amdahl's law: " + projected.joined(separator: ", "))
    }
}
