import PreloadConcurrency
import Dispatch
import Foundation
import Logging
import Synchronization

/// Preloads batches of assets through loader plugins, the way SpriteKit's
/// `SKTextureAtlas.preloadTextureAtlases(_:withCompletionHandler:)` does on Apple platforms:
/// operations on an `OperationQueue`, a completion operation that depends on all of them, and a
/// byte-weighted progress tree.
///
/// ```swift
/// import Preload
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// let report = try await coordinator.preload(["sprites/hero.png", "tiles/grass.png"])
/// let hero = coordinator.assets.texture(named: "sprites/hero.png")
/// ```
///
/// Identical requests in a batch (same file reached by any path, same plugin, same options)
/// become one asset with many waiters. Loads (a large file alone, small files several
/// together) run on a queue as wide as ``Configuration/maxConcurrentLoads``, and planning is
/// spread over as many threads. Loaded assets go into ``assets``.
public final class PreloadCoordinator: Sendable {
    /// Coordinator-wide settings.
    public struct Configuration: Sendable {
        /// How many loads run at once (and how many threads plan a large batch). Defaults to
        /// the number of active cores.
        public var maxConcurrentLoads: Int
        /// Where hooks run unless a batch says otherwise. `nil` (the default) gives each batch
        /// its own private serial queue, so a hook may even wait for another batch.
        public var callbackQueue: DispatchQueue?
        /// Files larger than this are refused before they are read. Defaults to 2 GiB.
        public var maxFileBytes: Int
        /// Receives debug messages about batches and failures.
        public var logger: Logger
        /// Where loads put large pixels and data (`LoadContext.memory`). Defaults to
        /// ``AssetMemory/shared``.
        public var memory: AssetMemory
        /// What fetches requests that name an `http://` or `https://` URL (PreloadRemote's
        /// `RemoteFetcher`: a cache, resume, retries, integrity checks): the source of URLs, after
        /// ``sources``. `nil` (the default): such a request fails, naming its URL
        /// (``AssetError/Category/download``).
        public var fetcher: (any RemoteFetching)?
        /// Where bytes come from besides the disk and containers' entries (``AssetSource``): a
        /// request's path is served by the first of them that owns it (`mem://…` by a source of
        /// files in memory), and a path none owns is read from the disk. Empty by default.
        public var sources: [any AssetSource]

        /// Settings with the defaults described on each property.
        public init(
            maxConcurrentLoads: Int = ProcessInfo.processInfo.activeProcessorCount,
            callbackQueue: DispatchQueue? = nil,
            maxFileBytes: Int = 1 << 31,
            logger: Logger = Logger(label: "preload"),
            memory: AssetMemory = .shared,
            fetcher: (any RemoteFetching)? = nil,
            sources: [any AssetSource] = []
        ) {
            self.fetcher = fetcher
            self.sources = sources
            self.maxConcurrentLoads = maxConcurrentLoads
            self.callbackQueue = callbackQueue
            self.maxFileBytes = maxFileBytes
            self.logger = logger
            self.memory = memory
        }
    }

    /// The plugins this coordinator loads with (reading files through its sources too).
    public let registry: PluginRegistry
    /// How this coordinator loads (fixed at creation).
    public let configuration: Configuration
    /// Everything loaded so far, until unloaded.
    public let assets = AssetStore()

    private let queue: OperationQueue
    /// Every source a batch prepares paths with: the configured ones, then the fetcher (or, with
    /// none, the refusal that names a URL as such).
    private let sources: [any AssetSource]
    private let planningQueue = DispatchQueue(label: "preload.planning", attributes: .concurrent)
    private let activeBatches = PreloadMutex<[ObjectIdentifier: PreloadBatch]>([:])

    /// A coordinator that loads with the plugins of `registry`.
    public init(registry: PluginRegistry, configuration: Configuration = Configuration()) {
        let readers = configuration.sources + (configuration.fetcher.map { [$0] } ?? [])
        self.registry = readers.isEmpty ? registry : registry.serving(readers)
        self.configuration = configuration
        sources = readers + (configuration.fetcher == nil ? [NoFetcher()] : [])
        queue = OperationQueue()
        queue.name = "preload.loads"
        queue.maxConcurrentOperationCount = max(1, configuration.maxConcurrentLoads)
    }

    /// A coordinator with `plugins` registered in order (duplicate claims are refused).
    public convenience init(plugins: [any LoaderPlugin], configuration: Configuration = Configuration()) throws {
        self.init(registry: try PluginRegistry(plugins), configuration: configuration)
    }

    /// Starts loading `requests` and returns at once; `hooks` report what happens (their
    /// ``PreloadHooks/onCompletion`` once, with the report), and the batch can be polled,
    /// cancelled or waited on (``PreloadBatch/whenFinished(on:_:)``).
    public func start(
        _ requests: [AssetRequest], options: PreloadOptions = PreloadOptions(), hooks: PreloadHooks = PreloadHooks()
    ) -> PreloadBatch {
        start(requests, options: options, hooks: hooks, outlets: [])
    }

    /// Starts loading `requests` with `outlets` added at the end of the batch's outlets (see
    /// ``BatchOutlet``): a batch feature of a test or a tool, made the documented way.
    func start(
        _ requests: [AssetRequest], options: PreloadOptions = PreloadOptions(), hooks: PreloadHooks = PreloadHooks(),
        outlets: sending [any BatchOutlet]
    ) -> PreloadBatch {
        let batch = PreloadBatch(
            requests: requests, options: options, hooks: hooks, callbackQueue: options.callbackQueue ?? configuration.callbackQueue,
            store: assets, registry: registry, queue: queue, logger: configuration.logger, memory: configuration.memory,
            maxFileBytes: configuration.maxFileBytes, sources: sources, outlets: outlets)
        let key = ObjectIdentifier(batch)
        activeBatches.withLock { $0[key] = batch }
        // Forget the batch as soon as it completes, so that nothing here keeps its report (and
        // through it every asset) alive once the caller lets go of it.
        batch.recorder.onComplete = { [weak self] in _ = self?.activeBatches.withLock { $0.removeValue(forKey: key) } }
        batch.launch(on: planningQueue)
        return batch
    }

    /// Starts loading `requests` and calls `completion` once with the report, like SpriteKit's
    /// preload methods (which, unlike this one, cannot tell you what failed).
    ///
    /// The order is fixed: `completion` runs after every other hook of the batch, and the
    /// returned batch's ``PreloadBatch/isFinished`` turns `true` only once `completion` has
    /// returned (inside `completion` it still reads `false`). So a game that polls
    /// `isFinished` each frame sees whatever `completion` did.
    @discardableResult
    public func preload(
        _ requests: [AssetRequest], options: PreloadOptions = PreloadOptions(), hooks: PreloadHooks = PreloadHooks(),
        completion: @escaping @Sendable (PreloadReport) -> Void
    ) -> PreloadBatch {
        start(requests, options: options, hooks: hooks.combined(with: PreloadHooks(onCompletion: completion)))
    }

    /// Loads `requests` and returns the report once every hook has run. Failures are in the
    /// report (or, with ``FailurePolicy/failFast``, the first one and the cancellations it
    /// caused). Cancelling the calling task cancels the batch and throws ``PreloadCancelled``,
    /// which carries the report: what had loaded by then is in the store and in it.
    public func preload(
        _ requests: [AssetRequest], options: PreloadOptions = PreloadOptions(), hooks: PreloadHooks = PreloadHooks()
    ) async throws -> PreloadReport {
        let holder = CancellationRelay<PreloadBatch> { $0.cancel() }
        let report = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let batch = start(requests, options: options, hooks: hooks)
                holder.hold(batch)
                batch.whenFinished { continuation.resume(returning: $0) }
            }
        } onCancel: {
            holder.cancel()
        }
        if Task.isCancelled { throw PreloadCancelled(report: report) }
        return report
    }

    /// Starts loading `requests` and returns the batch with a stream of its events, ending with
    /// ``PreloadEvent/completed(_:)``. Ending the iteration early cancels the batch.
    public func events(
        _ requests: [AssetRequest], options: PreloadOptions = PreloadOptions()
    ) -> (batch: PreloadBatch, events: AsyncStream<PreloadEvent>) {
        // Unbounded: per-asset events and the final report must never be dropped, and progress
        // events are already throttled, so the buffer is bounded by the batch's size.
        let (stream, continuation) = AsyncStream.makeStream(of: PreloadEvent.self)
        let hooks = PreloadHooks(
            onProgress: { continuation.yield(.progress($0)) },
            onAssetLoaded: { continuation.yield(.assetLoaded($0)) },
            onAssetFailed: { continuation.yield(.assetFailed($0)) },
            onCompletion: {
                continuation.yield(.completed($0))
                continuation.finish()
            })
        let batch = start(requests, options: options, hooks: hooks)
        continuation.onTermination = { termination in
            if case .cancelled = termination { batch.cancel() }
        }
        return (batch, stream)
    }

    /// Cancels every batch of this coordinator that has not finished. (Not
    /// `OperationQueue.cancelAllOperations()`: that would cancel the completion operations too,
    /// and a cancelled `BlockOperation` never runs, so the batches would never complete.)
    public func cancelAll() {
        for batch in activeBatches.withLock({ Array($0.values) }) { batch.cancel() }
    }
}
