/// Where the time of one asset's load went, from its load being queued to its plugin returning:
/// in ``PreloadReport/timings(of:)``, and per result in the command's `--json`.
///
/// The four parts follow one another: ``queued``, then ``waitingForMemory``, then ``reading``
/// and ``decoding`` (which together make ``AssetResult/duration``). Requests merged into one
/// asset share its timings.
///
/// ```swift
/// import Preload
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader()])
/// let report = try await coordinator.preload([.folder("sample-assets", name: "assets")])
/// for result in report.loaded {
///     guard let timings = report.timings(of: result) else { continue }
///     print(result.request.name, timings.queued, timings.reading, timings.decoding)
/// }
/// ```
public struct AssetTimings: Sendable, Hashable {
    /// From its load being queued until its plugin started on it, except the time waiting for
    /// the memory budget: waiting for a worker, and for the files before it in the same load.
    public var queued: Duration
    /// Waiting for the memory budget (``PreloadOptions/memoryBudget``) to make room for its
    /// load's decoded bytes; zero without a budget.
    public var waitingForMemory: Duration
    /// Reading the file through ``LoadContext/readContents(reportingProgress:)``; zero for a
    /// small file planning read ahead (its read is part of ``PreloadReport/planning``).
    public var reading: Duration
    /// The rest of the plugin's work: decoding, for an image.
    public var decoding: Duration

    /// No time at all: an asset that never ran.
    public init() {
        (queued, waitingForMemory, reading, decoding) = (.zero, .zero, .zero, .zero)
    }

    /// Timings with the four parts given.
    public init(queued: Duration, waitingForMemory: Duration, reading: Duration, decoding: Duration) {
        self.queued = queued
        self.waitingForMemory = waitingForMemory
        self.reading = reading
        self.decoding = decoding
    }
}

extension PreloadReport {
    /// Where the time of `result`'s load went; `nil` for a result that never loaded (failed
    /// before its plugin ran, while planning) or that is not this report's.
    public func timings(of result: AssetResult) -> AssetTimings? {
        guard let asset = result.assetIndex, let batch = result.batch, batch == allResults.batch else { return nil }
        return assetTimings.timings(of: asset, duration: result.duration)  // decoding: the rest of the plugin's time
    }
}
