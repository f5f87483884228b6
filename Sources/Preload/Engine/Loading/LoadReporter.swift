import Synchronization

/// Everything a load may ask of its batch and tell it, and nothing else: handed to each
/// ``LoadOperation`` and ``LoadContext`` of one batch. A load never reaches the batch itself.
///
/// It reads the batch's cancellation, reports an asset's partial progress, a failure (which
/// cancels the batch under fail-fast) and the finished assets of the load, each to the batch's
/// ``BatchRecorder``, and reads the outcomes of the dependencies an asset declared (finished
/// before its load starts: its operation depends on theirs). The memory budget's admission
/// (``admission``) and the coordinator's settings for reading files come with it.
final class LoadReporter: Sendable {
    private let recorder: BatchRecorder
    /// Where large pixels and data go: the coordinator's pool.
    let memory: AssetMemory
    /// Files larger than this are refused before they are read.
    let maxFileBytes: Int
    /// Whether a warning fails its asset (``PreloadOptions/isStrict``).
    let isStrict: Bool
    /// The memory budget's admission (``PreloadOptions/memoryBudget``); `nil` without one.
    let admission: MemoryBudget?

    init(recorder: BatchRecorder, memory: AssetMemory, maxFileBytes: Int, isStrict: Bool, admission: MemoryBudget?) {
        self.recorder = recorder
        self.memory = memory
        self.maxFileBytes = maxFileBytes
        self.isStrict = isStrict
        self.admission = admission
    }

    /// Whether the batch is being cancelled: set before any load is told, so that a load
    /// starting while the others are being cancelled does not start a file.
    var isCancelled: Bool { recorder.cancelSignalled.load(ordering: .acquiring) }

    /// An asset failed (under fail-fast, the batch is cancelled now, not when the load ends).
    func failed() {
        recorder.assetFailed()
    }

    /// The asset `asset` is `fraction` done.
    func progressed(_ asset: Int, fraction: Double) {
        recorder.progressed(asset, fraction: fraction)
    }

    /// The load's assets are done (called once, before the load's `isFinished` turns true).
    func finished(_ assets: [FinishedAsset]) {
        recorder.record(assets)
    }

    /// How `dependencies` ended (all finished: their loads ran before the dependent's).
    func outcomes(of dependencies: [(request: AssetRequest, asset: Int)]) -> [AssetRequest: AssetOutcome] {
        recorder.outcomes(of: dependencies)
    }
}
