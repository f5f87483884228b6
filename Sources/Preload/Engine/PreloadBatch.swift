import Dispatch
import Foundation
import Logging

/// One running preload: a handle to cancel it, watch its progress, and wait for its report.
///
/// Made by ``PreloadCoordinator``. A batch plans its requests off the caller's thread, queues
/// its loads on the coordinator's `OperationQueue` (one state-tracked `Operation` per load: a
/// large file alone, small files several together, each asset keeping its own outcome), and ends
/// with a completion `BlockOperation` that depends on all of them and runs exactly once.
public final class PreloadBatch: Sendable {
    /// The requests, as given.
    public var requests: [AssetRequest] { recorder.requests }

    /// The batch's record stage, which keeps its state (see `docs/architecture.md`).
    let recorder: BatchRecorder
    private let planner: BatchPlanner

    /// A batch of `requests`, assembled: its planner, its loads' environment, its recorder and
    /// outlets (`outlets` added at the end of the list). Nothing runs until ``launch(on:)``.
    init(
        requests: [AssetRequest], options: PreloadOptions, hooks: PreloadHooks, callbackQueue: DispatchQueue?,
        store: AssetStore, registry: PluginRegistry, queue: OperationQueue, logger: Logger, memory: AssetMemory, maxFileBytes: Int,
        sources: [any AssetSource] = [], outlets: sending [any BatchOutlet] = []
    ) {
        recorder = BatchRecorder(
            callers: requests, options: options, store: StoreStage(store: options.storesAssets ? store : nil),
            events: EventOutlet(hooks: hooks, callbackQueue: callbackQueue), logger: logger, memory: memory,
            plugins: registry.all.map(\.identifier), outlets: outlets)
        let environment = LoadEnvironment(
            memory: memory, maxFileBytes: maxFileBytes, isStrict: options.isStrict, cancellation: recorder.cancellation,
            admission: recorder.budget, sink: LoadSink { [recorder] in recorder.receive($0) }, bakedKinds: registry.bakedKinds)
        planner = BatchPlanner(
            callers: requests, recorder: recorder, environment: environment, options: options, registry: registry, queue: queue,
            workers: queue.maxConcurrentOperationCount, sources: PreparedSources(sources: sources, recorder: recorder))
    }

    /// Plans the batch on `planningQueue` (its loads go on the coordinator's queue as they are made).
    func launch(on planningQueue: DispatchQueue) {
        planningQueue.async { [planner] in planner.launch() }
    }

    /// Cancels every load that has not finished. The batch still completes (once), reporting
    /// the cancelled requests. Harmless after the batch finished.
    public func cancel() {
        recorder.cancel()
    }

    /// Whether every request has been planned and its load queued (planning runs off the
    /// caller's thread; until then ``progress`` reads 0, as the total is not known).
    package var isPlanned: Bool { recorder.state.withLock { $0.phase != .planning } }

    /// Whether the batch has completed and every hook has run: when this is `true`, the
    /// completion handler (``PreloadHooks/onCompletion``, the closure given to
    /// ``PreloadCoordinator/preload(_:options:hooks:completion:)``) has returned, and ``report``
    /// is set. A game polling it once per frame can rely on what that handler did. (``report``
    /// and the final ``progress`` are set just before the handler runs, so either may be
    /// there a moment before this turns `true`; inside the handler this still reads `false`.) Do not wait for it by blocking the queue the
    /// hooks run on (the main queue, for main-actor hooks): the handler could never run.
    public var isFinished: Bool { recorder.hooksFinished.load(ordering: .acquiring) }

    /// Whether ``cancel()`` was called (directly, by task cancellation, or by fail-fast).
    public var isCancelled: Bool { recorder.isCancelled }

    /// The progress now.
    public var progress: PreloadProgress {
        recorder.state.withLock { state in
            guard state.phase == .finished else { return state.outlets.progress.snapshot() }
            return state.outlets.progress.finalSnapshot()
        }
    }

    /// The report, once the batch has completed.
    public var report: PreloadReport? { recorder.state.withLock { $0.report } }

    /// Runs `body` on `queue` with the report once the batch has completed and its completion
    /// hook has run (at once, on `queue`, if it already has). Any number of callers may wait.
    public func whenFinished(on queue: DispatchQueue = .global(), _ body: @escaping @Sendable (PreloadReport) -> Void) {
        recorder.done.notify(queue: queue) { [self] in body(report!) }
    }
}
