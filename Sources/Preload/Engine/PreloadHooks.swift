/// Callbacks for one batch. Each runs on the batch's callback queue, one at a time and in order,
/// never while the coordinator holds a lock, so a hook may call back into the coordinator
/// (start another batch, cancel this one, read the store) without deadlocking.
public struct PreloadHooks: Sendable {
    /// Progress, at most once per ``PreloadOptions/progressInterval``, never going backwards,
    /// and always a last call with `fractionCompleted == 1.0` just before completion.
    public var onProgress: (@Sendable (PreloadProgress) -> Void)?
    /// One of the caller's requests loaded (once per request, also for requests merged into
    /// one load). Dependencies too with ``includesDependencies``.
    public var onAssetLoaded: (@Sendable (AssetResult) -> Void)?
    /// One of the caller's requests failed (once per request), with the file and the cause.
    /// Dependencies too with ``includesDependencies``.
    public var onAssetFailed: (@Sendable (AssetResult) -> Void)?
    /// The batch ended: exactly once, whether everything loaded, some failed, all were
    /// cancelled, or there was nothing to load.
    public var onCompletion: (@Sendable (PreloadReport) -> Void)?
    /// Whether ``onAssetLoaded`` and ``onAssetFailed`` also run for what plugins load on the
    /// caller's behalf (an atlas's pages, a pack's entries; ``AssetResult/isDependency``).
    /// `false` by default: an "upload to the GPU" hook sees the atlas, not its pages again.
    public var includesDependencies = false
    /// Whether the hooks run on the main actor (``onMainActor(onProgress:onAssetLoaded:onAssetFailed:onCompletion:)``).
    public internal(set) var runsOnMainActor = false

    /// Hooks run on the batch's callback queue (``PreloadOptions/callbackQueue``).
    public init(
        onProgress: (@Sendable (PreloadProgress) -> Void)? = nil,
        onAssetLoaded: (@Sendable (AssetResult) -> Void)? = nil,
        onAssetFailed: (@Sendable (AssetResult) -> Void)? = nil,
        onCompletion: (@Sendable (PreloadReport) -> Void)? = nil
    ) {
        self.onProgress = onProgress
        self.onAssetLoaded = onAssetLoaded
        self.onAssetFailed = onAssetFailed
        self.onCompletion = onCompletion
    }

    /// Hooks that call `self`'s and then `other`'s (a tool's own hooks added to its caller's);
    /// dependencies are reported, and hooks run on the main actor, if either asks.
    public func combined(with other: PreloadHooks) -> PreloadHooks {
        func chain<T>(_ first: (@Sendable (T) -> Void)?, _ second: (@Sendable (T) -> Void)?) -> (@Sendable (T) -> Void)? {
            guard let first else { return second }
            guard let second else { return first }
            return {
                first($0); second($0)
            }
        }
        var combined = PreloadHooks(
            onProgress: chain(onProgress, other.onProgress),
            onAssetLoaded: chain(onAssetLoaded, other.onAssetLoaded),
            onAssetFailed: chain(onAssetFailed, other.onAssetFailed),
            onCompletion: chain(onCompletion, other.onCompletion))
        combined.includesDependencies = includesDependencies || other.includesDependencies
        combined.runsOnMainActor = runsOnMainActor || other.runsOnMainActor
        return combined
    }
}

/// A batch's progress at one moment.
public struct PreloadProgress: Sendable, Hashable {
    /// From 0 to 1, weighted by bytes (see ``ProgressWeighting``); exactly 1.0 when finished.
    public var fractionCompleted: Double
    /// Weighted units done and in all.
    public var completedUnitCount: Int64
    /// The work of the whole batch, in the unit of ``completedUnitCount``.
    public var totalUnitCount: Int64
    /// Distinct assets finished, in any way (requests merged into one load count once).
    public var finishedAssets: Int
    /// Distinct assets in all, dependencies included.
    public var totalAssets: Int
    /// Whether this is the final report of the batch.
    public var isFinished: Bool

    package init(
        fractionCompleted: Double, completedUnitCount: Int64, totalUnitCount: Int64,
        finishedAssets: Int, totalAssets: Int, isFinished: Bool
    ) {
        self.fractionCompleted = fractionCompleted
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
        self.finishedAssets = finishedAssets
        self.totalAssets = totalAssets
        self.isFinished = isFinished
    }
}

/// Something that happened in a batch, as ``PreloadCoordinator/events(_:options:)`` delivers it.
public enum PreloadEvent: Sendable {
    case progress(PreloadProgress)
    case assetLoaded(AssetResult)
    case assetFailed(AssetResult)
    /// The last event of every batch.
    case completed(PreloadReport)
}
