import Preload

/// What a batch did, in terms that do not depend on timing: what the bulk-path tests compare
/// between a plugin's bulk path and the same requests planned and loaded one by one.
public struct BatchObservation: Equatable, Sendable {
    /// Store name -> the caller's result, as the test describes it.
    public var results: [String: String] = [:]
    /// Each dependency's `name: outcome`, sorted.
    public var dependencies: [String] = []
    /// The names `onAssetLoaded` heard (dependencies included), sorted.
    public var loadedEvents: [String] = []
    /// The names `onAssetFailed` heard (dependencies included), sorted.
    public var failedEvents: [String] = []
    /// Each result's `name: warning`, sorted.
    public var warnings: [String] = []
    /// The names of results the store holds, sorted.
    public var stored: [String] = []
    /// The last progress report's total units.
    public var progressTotal: Int64 = 0
    /// The last progress report's completed units.
    public var progressCompleted: Int64 = 0

    /// What preloading `requests` with `coordinator` and `options` did, each outcome described
    /// by `describe`; and the report.
    public static func observe(
        _ requests: [AssetRequest], with coordinator: PreloadCoordinator, options: PreloadOptions = PreloadOptions(),
        describe: (AssetOutcome) -> String
    ) async throws -> (BatchObservation, PreloadReport) {
        let loaded = Recorder<String>(), failed = Recorder<String>(), progress = Recorder<PreloadProgress>()
        var hooks = PreloadHooks(
            onProgress: { progress.append($0) }, onAssetLoaded: { loaded.append($0.request.name) },
            onAssetFailed: { failed.append($0.request.name) })
        hooks.includesDependencies = true
        let report = try await coordinator.preload(requests, options: options, hooks: hooks)
        var observed = BatchObservation()
        for result in report.results { observed.results[result.request.name] = describe(result.outcome) }
        observed.dependencies = report.dependencies.map { "\($0.request.name): \(describe($0.outcome))" }.sorted()
        observed.warnings = report.allResults.flatMap { result in result.warnings.map { "\(result.request.name): \($0)" } }.sorted()
        observed.loadedEvents = loaded.all.sorted()
        observed.failedEvents = failed.all.sorted()
        observed.stored = report.allResults.map(\.request.name).filter { coordinator.assets.asset(named: $0) != nil }.sorted()
        observed.progressTotal = progress.all.last?.totalUnitCount ?? 0
        observed.progressCompleted = progress.all.last?.completedUnitCount ?? 0
        return (observed, report)
    }
}
