/// One asset a ``LoadOperation`` loads, as planning left it.
struct LoadItem: Sendable {
    /// The asset's index in its batch.
    let asset: Int
    let request: PlannedRequest
    let plugin: RegisteredPlugin
    /// The whole file, when planning read it ahead.
    let contents: AssetBytes?
    /// What it counts against the batch's memory budget (0 without one).
    var decodedBytes = 0
    init(asset: Int, request: PlannedRequest, plugin: RegisteredPlugin, contents: AssetBytes?) {
        self.asset = asset
        self.request = request
        self.plugin = plugin
        self.contents = contents
    }

    /// What the plugin declared; `nil` for most files, so that handing an item on copies no
    /// collections.
    private var declared: Declared?

    private struct Declared {
        var dependencies: [(request: AssetRequest, asset: Int)] = []
        var failures: [AssetRequest: AssetError] = [:]
    }

    /// The assets the plugin's declared dependencies were merged into, in declared order (empty
    /// for most files). They belong to other operations, which this one depends on.
    var dependencies: [(request: AssetRequest, asset: Int)] {
        get { declared?.dependencies ?? [] }
        _modify {
            if declared == nil { declared = Declared() }
            yield &declared!.dependencies
        }
    }

    /// Declared dependencies that failed while planning (kept only for tolerant plugins).
    var dependencyFailures: [AssetRequest: AssetError] {
        get { declared?.failures ?? [:] }
        _modify {
            if declared == nil { declared = Declared() }
            yield &declared!.failures
        }
    }

    /// Whether the plugin declared any dependency (most files: no).
    var hasDependencies: Bool { declared != nil }
}

/// How one asset of a ``LoadOperation`` ended, handed to the batch when the operation finishes.
struct FinishedAsset: Sendable {
    let asset: Int
    /// The request the asset was planned for (its store name and path, its plugin).
    let planned: PlannedRequest
    let outcome: AssetOutcome
    let duration: Duration
    /// What the plugin warned about, for an asset that loaded.
    var warnings: [AssetWarning] = []
    /// What it counts against the batch's memory budget (0 without one).
    var decodedBytes = 0
}

extension LoadItem {
    /// The item that loads `resolved` as asset `asset`.
    init(asset: Int, resolved: ResolvedRequest) {
        self.init(asset: asset, request: resolved.planned, plugin: resolved.plugin, contents: resolved.contents)
        decodedBytes = resolved.decodedBytes
    }
}

extension FinishedAsset {
    init(_ item: LoadItem, outcome: AssetOutcome, duration: Duration) {
        self.init(asset: item.asset, planned: item.request, outcome: outcome, duration: duration)
        decodedBytes = item.decodedBytes
    }

    /// How `item` ended, with the warnings its plugin recorded on `context` if it loaded.
    init(_ item: borrowing LoadItem, outcome: AssetOutcome, duration: Duration, context: LoadContext) {
        self.init(asset: item.asset, planned: item.request, outcome: outcome, duration: duration)
        decodedBytes = item.decodedBytes
        if outcome.isLoaded { warnings = context.warnings }
    }
}
