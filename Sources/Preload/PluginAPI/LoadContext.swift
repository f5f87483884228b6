import PreloadConcurrency
import Synchronization

/// What a plugin's ``LoaderPlugin/load(_:)`` gets to do its work: the request, the file's
/// contents, cancellation, progress reporting, and the results of the requests it depends on.
///
/// (Sendable by its use: the engine gives one context to one load of one request at a time; a
/// load of many small files passes a context on to its next file only when the plugin kept no
/// reference to it.)
public final class LoadContext: @unchecked Sendable {
    /// The request being loaded.
    public var request: PlannedRequest { loading.request }
    /// Where large pixels and data go: the coordinator's pool (``PreloadCoordinator/Configuration/memory``).
    /// ``readContents(reportingProgress:)`` uses it; so should a decoder writing an asset's bytes.
    public var memory: AssetMemory { environment.memory }
    /// What is loaded: set when made, and again only when no one else holds the context.
    private var loading: Loading
    private var asset: Int { loading.asset }
    /// What the load received from its batch, and where it sends progress.
    private let environment: LoadEnvironment
    private var dependencies: [AssetRequest: AssetOutcome] { loading.dependencies }
    /// The file, if planning read it ahead.
    private var contents: AssetBytes? { loading.contents }
    /// What the plugin's plan handed its load (``PlanningPlugin``), by reference (``CarriedNote``).
    private var note: CarriedNote? { loading.note }
    private var maxFileBytes: Int { environment.maxFileBytes }
    private var isStrict: Bool { environment.isStrict }
    /// The batch's baked kinds (``bakedAssetType(ofKind:)``).
    var bakedKinds: BakedKinds { environment.bakedKinds }
    /// What the plugin reported: progress (only forward) and warnings.
    private let reportsLock = PreloadMutex(Reports())

    /// The request a context is for, and what its load was handed.
    private struct Loading {
        let request: PlannedRequest
        let asset: Int
        let contents: AssetBytes?
        let dependencies: [AssetRequest: AssetOutcome]
        let note: CarriedNote?
    }

    private struct Reports {
        var progress = MonotonicProgress()
        var warnings: [AssetWarning] = []
        /// Time spent reading the file, for ``AssetTimings/reading``.
        var reading: Duration = .zero
        /// How a bulk plugin reads the entry, while its run loads it (``BulkEntryRun/loadEach(reading:)``).
        var supplied: SuppliedEntry?
    }

    /// How a ``BulkLoadingPlugin`` reads the entry being loaded from the container it holds open:
    /// given where progress goes, the entry's bytes. Held only while the run loads the entry.
    final class SuppliedEntry: @unchecked Sendable {
        let read: (_ progress: (Double) -> Void) throws -> AssetBytes

        init(_ read: @escaping (_ progress: (Double) -> Void) throws -> AssetBytes) { self.read = read }
    }

    /// Has ``readContents(reportingProgress:)`` read the entry by `supplied` (`nil`: as usual).
    func supply(_ supplied: SuppliedEntry?) {
        reportsLock.withLock { $0.supplied = supplied }
    }

    init(
        request: PlannedRequest, asset: Int, environment: LoadEnvironment, contents: consuming AssetBytes? = nil,
        dependencies: [AssetRequest: AssetOutcome], note: CarriedNote? = nil
    ) {
        loading = Loading(request: request, asset: asset, contents: consume contents, dependencies: dependencies, note: note)
        self.environment = environment
    }

    /// `context` made ready for loading `request` (with the same environment), when no one else
    /// holds it (its plugin returned, keeping no reference): made and freed per file, a context
    /// cost ~300 instructions (callgrind, issue 50). Else a new context; `nil`: a new one too.
    static func reused(
        _ context: inout LoadContext?, for request: PlannedRequest, asset: Int, environment: LoadEnvironment, contents: consuming AssetBytes?,
        dependencies: [AssetRequest: AssetOutcome], note: CarriedNote?
    ) -> LoadContext {
        guard var held = context.take(), held.environment === environment, isKnownUniquelyReferenced(&held) else {
            return LoadContext(
                request: request, asset: asset, environment: environment, contents: consume contents, dependencies: dependencies, note: note)
        }
        held.loading = Loading(request: request, asset: asset, contents: consume contents, dependencies: dependencies, note: note)
        held.reportsLock.withLock { $0 = Reports() }
        return held
    }

    /// How to read files: the disk, and entries inside containers.
    public var files: AssetFiles { request.files }

    /// Whether the load was cancelled; long work should stop soon after this turns true.
    public var isCancelled: Bool { environment.isCancelled }

    /// Throws `CancellationError` if the load was cancelled.
    public func checkCancellation() throws {
        if environment.isCancelled { throw CancellationError() }
    }

    /// Reports how much of this asset is done, from 0 to 1. Cheap to call often: reports that
    /// move less than 1% (and any that would go backwards) are dropped here.
    public func reportProgress(_ fraction: Double) {
        if let forward = reportsLock.withLock({ $0.progress.advance(to: fraction, minimumStep: 0.01) }) {
            environment.sink.send(.progressed(asset: asset, fraction: forward))
        }
    }

    /// Records that the file is irregular but loads (see ``AssetWarning``). In a strict batch
    /// (``PreloadOptions/isStrict``) throws the warning as the asset's failure instead: let it
    /// propagate out of ``LoaderPlugin/load(_:)``.
    public func warn(_ warning: AssetWarning) throws(AssetError) {
        if isStrict { throw AssetError.strict(path: request.path, warning: warning) }
        reportsLock.withLock { $0.warnings.append(warning) }
    }

    /// Records each of `warnings` in order, as `warn(_:)` does for one.
    public func warn(_ warnings: [AssetWarning]) throws(AssetError) {
        for warning in warnings { try warn(warning) }
    }

    /// The warnings recorded, and the time ``readContents(reportingProgress:)`` spent reading (zero
    /// for a file read ahead), in one lock, once the plugin has returned.
    var reports: (warnings: [AssetWarning], reading: Duration) { reportsLock.withLock { ($0.warnings, $0.reading) } }

    /// The whole file (or container entry), read once, refusing more than the coordinator's
    /// size limit. With `reportingProgress`, reading is this load's progress (for a plugin that
    /// only reads: an entry inflating); leave it off when decoding reports progress afterwards.
    public func readContents(reportingProgress: Bool = false) throws -> AssetBytes {
        if let contents {  // read ahead while planning (a small file)
            guard contents.count <= maxFileBytes else {
                throw AssetError.fileTooLarge(path: request.path, size: contents.count, limit: maxFileBytes)
            }
            return contents
        }
        let started = ContinuousClock.now
        defer {
            let read = ContinuousClock.now - started
            reportsLock.withLock { $0.reading += read }
        }
        if request.file.isOnDisk && !request.file.isDirectory {  // on disk, its size known from planning
            return try FileContents.assetBytes(path: request.path, knownSize: request.file.size, limit: maxFileBytes, memory: memory)
        }
        if let supplied = reportsLock.withLock({ $0.supplied }) {  // an entry of a bulk plugin's run: its container is open
            return try supplied.read { if reportingProgress { reportProgress($0) } }
        }
        return try request.files.read(
            request.path, limit: maxFileBytes, memory: memory, isCancelled: { environment.isCancelled },
            progress: { if reportingProgress { reportProgress($0) } })
    }

    /// What this request's ``PlanningPlugin/plan(_:)`` handed its load, as `type`; `nil` when
    /// there is none (the plugin is not a ``PlanningPlugin``) or it is of another type. Only
    /// this request's load sees it; the engine drops it when the load ends.
    public func planningNote<Note: Sendable>(as type: Note.Type) -> Note? {
        note?.value as? Note
    }

    /// How `dependency` (one of the requests the plugin declared) ended: for plugins that
    /// tolerate failed dependencies, which see every outcome. `nil` if it was not declared.
    public func outcome(of dependency: AssetRequest) -> AssetOutcome? {
        declared(dependency)
    }

    /// The outcome of `dependency` as declared: for a stand-in (a fetched file), a name beside it
    /// was declared beside its origin (``PreparedSources``).
    private func declared(_ dependency: AssetRequest) -> AssetOutcome? {
        if let outcome = dependencies[dependency] { return outcome }
        guard request.request.origin != nil else { return nil }
        return dependencies[PreparedSources.originDependency(dependency, of: request.request)]
    }

    /// The asset loaded for `dependency`, one of the requests the plugin returned from
    /// ``LoaderPlugin/dependencies(of:)``. Unless the plugin tolerates failed dependencies, a
    /// load whose dependency failed never gets here: it fails before it runs.
    public func dependency(_ dependency: AssetRequest) throws -> any Asset {
        switch declared(dependency) {
        case .loaded(let asset): return asset
        case .failed(let error): throw error
        case .cancelled: throw AssetError.dependencyCancelled(path: request.path, dependency: dependency.path)
        case nil:
            throw AssetError(
                path: request.path, category: .other,
                reason: "asked for \(dependency.path), which it did not declare as a dependency")
        }
    }

    /// The asset loaded for `dependency`, as `type`. Throws, naming the dependency, when it
    /// loaded as something else, or when only a ``HandedOverAsset`` is left of it.
    public func dependency<T: Asset>(_ dependency: AssetRequest, as type: T.Type) throws -> T {
        let asset = try self.dependency(dependency)
        if let typed = asset as? T { return typed }
        if let released = asset as? HandedOverAsset {
            throw AssetError(
                path: request.path, category: .other,
                reason: "dependency \(dependency.path) (\(released.summary)) was handed over to the engine and its CPU copy "
                    + "released before this file could read it")
        }
        throw AssetError(
            path: request.path, category: .other,
            reason: "dependency \(dependency.path) loaded as a \(asset.kind) asset (\(Swift.type(of: asset))), not the \(T.self) this file needs")
    }
}
