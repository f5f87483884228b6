/// What happened to one request.
public struct AssetResult: Sendable {
    /// The request, as the caller (or, for a dependency, the plugin) made it.
    public let request: AssetRequest
    /// The plugin that loaded it; `nil` when no plugin claimed it.
    public let plugin: String?
    /// Whether a plugin asked for it as a dependency rather than the caller directly.
    public let isDependency: Bool
    public let outcome: AssetOutcome
    /// How long loading the asset took (shared by merged requests); zero if it never ran.
    public let duration: Duration
    /// Identifies the asset within its batch: requests merged into one load of one file share it.
    public let assetIndex: Int?
    /// What was irregular about a file that loaded anyway (see ``AssetWarning``), in the order
    /// the plugin found it; empty for most files and for every one that did not load.
    public let warnings: [AssetWarning]

    public init(
        request: AssetRequest, plugin: String?, isDependency: Bool, outcome: AssetOutcome,
        duration: Duration, assetIndex: Int?, warnings: [AssetWarning] = []
    ) {
        self.request = request
        self.plugin = plugin
        self.isDependency = isDependency
        self.outcome = outcome
        self.duration = duration
        self.assetIndex = assetIndex
        self.warnings = warnings
    }

    /// ``duration`` in seconds.
    public var seconds: Double { duration.inSeconds }
}

/// The end of a batch: what loaded, what failed and why, what was cancelled, and how long it took.
public struct PreloadReport: Sendable {
    /// One result per request, the caller's in the order given, each followed by the
    /// dependencies plugins declared for it.
    public let results: AssetResults
    /// From the call that started the batch to its completion.
    public let elapsed: Duration
    /// The part of ``elapsed`` spent planning: finding files, claiming them, merging duplicates,
    /// following dependencies and making operations.
    public let planning: Duration
    /// Whether the batch was cancelled (by the caller, by task cancellation or by fail-fast).
    public let wasCancelled: Bool
    /// Time that did not shrink with more workers (``BatchDiagnostics``).
    var serialWork = BatchDiagnostics()

    public init(results: [AssetResult], elapsed: Duration, planning: Duration = .zero, wasCancelled: Bool) {
        self.init(results: AssetResults(results), elapsed: elapsed, planning: planning, wasCancelled: wasCancelled)
    }

    /// A report on `results`.
    public init(results: AssetResults, elapsed: Duration, planning: Duration = .zero, wasCancelled: Bool) {
        self.results = results
        self.elapsed = elapsed
        self.planning = planning
        self.wasCancelled = wasCancelled
    }

    /// The results of the caller's own requests, without the dependencies plugins added.
    public var requested: [AssetResult] { results.filter { !$0.isDependency } }
    public var loaded: [AssetResult] { results.loaded }
    public var failed: [AssetResult] { results.failed }
    public var cancelled: [AssetResult] { results.cancelled }
    /// The results that loaded with warnings.
    public var warned: [AssetResult] { results.filter { !$0.warnings.isEmpty } }
    /// The errors, in request order.
    public var errors: [AssetError] { results.compactMap(\.outcome.error) }
    /// Whether every request loaded.
    public var succeeded: Bool { results.allSatisfy { $0.outcome.asset != nil } }

    /// Bytes held by the loaded assets the caller requested, counting a load shared by merged
    /// requests once. (Dependencies are left out: an atlas's size already includes its pages.)
    public var decodedBytes: Int {
        var counted: [Bool] = []
        var total = 0
        for index in results.indices where !results[index].isDependency {
            guard case .loaded(let asset) = results[index].outcome else { continue }
            if let shared = results[index].assetIndex {
                if shared >= counted.count { counted += repeatElement(false, count: max(shared + 1 - counted.count, counted.count)) }
                if counted[shared] { continue }
                counted[shared] = true
            }
            total += asset.byteCount
        }
        return total
    }

    /// ``elapsed`` in seconds.
    public var elapsedSeconds: Double { elapsed.inSeconds }
}

extension Collection where Element == AssetResult {
    /// The results that loaded.
    public var loaded: [AssetResult] { filter { $0.outcome.asset != nil } }
    /// The results that failed.
    public var failed: [AssetResult] { filter { $0.outcome.error != nil } }
    /// The results that were cancelled.
    public var cancelled: [AssetResult] {
        filter { if case .cancelled = $0.outcome { true } else { false } }
    }
}

extension Duration {
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// A batch in which some requests did not load: the error of each of the caller's requests that
/// failed (a failed dependency shows as its dependent's cause), then those of dependencies whose
/// dependent loaded anyway (an entry of a pack).
public struct PreloadFailure: Error, Sendable, CustomStringConvertible {
    public let errors: [AssetError]
    /// The whole report, for what did load.
    public let report: PreloadReport

    public init(report: PreloadReport) {
        self.report = report
        let requested = report.requested.compactMap(\.outcome.error)
        var explained = Set(requested.map(\.path))
        for error in requested {
            var cause: AssetError? = error
            while let current = cause, current.category == .dependencyFailed {
                cause = current.underlying as? AssetError
                if let cause { explained.insert(cause.path) }
            }
        }
        let unexplained = report.results.filter(\.isDependency).compactMap(\.outcome.error).filter { explained.insert($0.path).inserted }
        errors = requested + unexplained
    }

    public var description: String {
        let cancelled = report.requested.cancelled.count
        let lines = errors.map(\.description) + (cancelled == 0 ? [] : ["\(cancelled) cancelled"])
        return "preload failed: " + lines.joined(separator: "; ")
    }
}

extension PreloadReport {
    /// Throws a ``PreloadFailure`` unless every request loaded.
    public func throwIfFailed() throws {
        if !succeeded { throw PreloadFailure(report: self) }
    }
}
