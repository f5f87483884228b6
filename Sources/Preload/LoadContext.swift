import Synchronization

/// What an ``AssetOperation`` gets to do its work: the file's contents, cancellation, progress
/// reporting, and the results of the requests it depends on.
public final class LoadContext: Sendable {
    private let operation: AssetOperation
    private let dependencies: [AssetRequest: AssetOperation]
    private let maxFileBytes: Int
    private let lastReported = Mutex(0.0)

    init(operation: AssetOperation, dependencies: [AssetRequest: AssetOperation], maxFileBytes: Int) {
        self.operation = operation
        self.dependencies = dependencies
        self.maxFileBytes = maxFileBytes
    }

    /// The request being loaded.
    public var request: PlannedRequest { operation.request }

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

    /// The whole file, read once, refusing files over the coordinator's size limit.
    public func readContents() throws -> [UInt8] {
        try FileContents.read(path: operation.request.request.path, limit: maxFileBytes)
    }

    /// The asset loaded for `dependency`, one of the requests the plugin returned from
    /// ``LoaderPlugin/dependencies(of:)``. Dependencies that failed never get here: the
    /// operation fails before it runs.
    public func dependency(_ dependency: AssetRequest) throws -> any Asset {
        guard let operation = dependencies[dependency] else {
            throw AssetError(
                path: request.path, category: .other,
                reason: "asked for \(dependency.path), which it did not declare as a dependency")
        }
        guard let asset = operation.outcome?.asset else {
            throw AssetError.dependencyCancelled(path: request.path, dependency: dependency.path)
        }
        return asset
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
