import Synchronization

/// What an ``AssetOperation`` gets to do its work: the file's contents, cancellation, progress
/// reporting, and the results of the requests it depends on.
public final class LoadContext: Sendable {
    private let operation: AssetOperation
    private let dependencies: [AssetRequest: AssetOperation]
    private let failures: [AssetRequest: AssetError]
    private let maxFileBytes: Int
    private let lastReported = Mutex(0.0)
    /// Where large pixels and data go: the coordinator's pool (``PreloadCoordinator/Configuration/memory``).
    /// ``readContents(reportingProgress:)`` uses it; so should a decoder writing an asset's bytes.
    public let memory: AssetMemory

    init(
        operation: AssetOperation, dependencies: [AssetRequest: AssetOperation], failures: [AssetRequest: AssetError], maxFileBytes: Int,
        memory: AssetMemory
    ) {
        self.operation = operation
        self.dependencies = dependencies
        self.failures = failures
        self.maxFileBytes = maxFileBytes
        self.memory = memory
    }

    /// The request being loaded.
    public var request: PlannedRequest { operation.request }

    /// How to read files: the disk, and entries inside containers.
    public var files: AssetFiles { operation.request.files }

    /// Whether the load was cancelled; long work should stop soon after this turns true.
    public var isCancelled: Bool { operation.isCancelled }

    /// Throws `CancellationError` if the load was cancelled.
    public func checkCancellation() throws {
        if operation.isCancelled { throw CancellationError() }
    }

    /// Reports how much of this load is done, from 0 to 1. Cheap to call often: reports that
    /// move less than 1% (and any that would go backwards) are dropped here.
    public func reportProgress(_ fraction: Double) {
        let clamped = min(max(fraction, 0), 1)
        let forward = lastReported.withLock { last in
            guard clamped >= last + 0.01 else { return false }
            last = clamped
            return true
        }
        if forward { operation.reportProgress(clamped) }
    }

    /// The whole file (or container entry), read once, refusing more than the coordinator's
    /// size limit. With `reportingProgress`, reading is this load's progress (for a plugin that
    /// only reads: an entry inflating); leave it off when decoding reports progress afterwards.
    public func readContents(reportingProgress: Bool = false) throws -> AssetBytes {
        try operation.request.files.read(
            operation.request.request.path, limit: maxFileBytes, memory: memory, isCancelled: { operation.isCancelled },
            progress: { if reportingProgress { reportProgress($0) } })
    }

    /// How `dependency` (one of the requests the plugin declared) ended: for plugins that
    /// tolerate failed dependencies, which see every outcome. `nil` if it was not declared.
    public func outcome(of dependency: AssetRequest) -> AssetOutcome? {
        if let failure = failures[dependency] { return .failed(failure) }
        return dependencies[dependency]?.outcome
    }

    /// The asset loaded for `dependency`, one of the requests the plugin returned from
    /// ``LoaderPlugin/dependencies(of:)``. Dependencies that failed never get here: the
    /// operation fails before it runs.
    public func dependency(_ dependency: AssetRequest) throws -> any Asset {
        if let failure = failures[dependency] { throw failure }
        guard let operation = dependencies[dependency] else {
            throw AssetError(
                path: request.path, category: .other,
                reason: "asked for \(dependency.path), which it did not declare as a dependency")
        }
        switch operation.outcome {
        case .loaded(let asset): return asset
        case .failed(let error): throw error
        case .cancelled, nil: throw AssetError.dependencyCancelled(path: request.path, dependency: dependency.path)
        }
    }

    /// The asset loaded for `dependency`, as `type`.
    public func dependency<T: Asset>(_ dependency: AssetRequest, as type: T.Type) throws -> T {
        let asset = try self.dependency(dependency)
        guard let typed = asset as? T else {
            throw AssetError(
                path: request.path, category: .other,
                reason: "dependency \(dependency.path) is a \(asset.kind), not \(T.self)")
        }
        return typed
    }
}
