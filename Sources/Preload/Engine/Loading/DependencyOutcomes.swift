import PreloadConcurrency

/// How the dependencies an asset declared ended, handed to its load as values: the recorder
/// fills it as each dependency finishes (or at once, for one that already has), and the load
/// reads it when it starts, after every dependency's load has finished (it depends on them).
final class DependencyOutcomes: Sendable {
    private let known = PreloadMutex<[AssetRequest: AssetOutcome]>([:])

    /// The dependency `request` ended with `outcome`.
    func set(_ outcome: AssetOutcome, for request: AssetRequest) {
        known.withLock { $0[request] = outcome }
    }

    /// The outcome of each of `requests`: a dependency with none was never loaded (cancelled).
    func outcomes(of requests: some Sequence<AssetRequest>) -> [AssetRequest: AssetOutcome] {
        known.withLock { known in
            var all = known
            for request in requests where all[request] == nil { all[request] = .cancelled }
            return all
        }
    }
}
