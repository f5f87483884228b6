/// A request resolved without looking at the rest of the batch: its file found, the plugin that
/// claims it, its weight for progress and its work for grouping, and (once asked) the requests
/// its plugin declares it depends on. A value: planning makes one per request and hands its parts on.
struct ResolvedRequest: Sendable {
    let planned: PlannedRequest
    let plugin: RegisteredPlugin
    let key: AssetKey
    /// Its share of the batch's progress.
    let weight: Int64
    /// How much work loading it is, for sizing loads (bytes of the file, or the plugin's estimate).
    let work: Int64
    /// The whole file, when planning read it ahead (a small file on disk).
    let contents: AssetBytes?
    /// The bytes loading it will hold (decoded pixels, from the file's header; else the file's
    /// size), when the batch has a memory budget; 0 otherwise.
    let decodedBytes: Int
    /// What ``RequestResolver/declare(_:)`` found: the dependencies, or why asking failed.
    let dependencies: Result<[AssetRequest], AssetError>

    init(
        planned: PlannedRequest, plugin: RegisteredPlugin, key: AssetKey, weight: Int64, work: Int64, contents: AssetBytes?,
        decodedBytes: Int = 0, dependencies: Result<[AssetRequest], AssetError> = .success([])
    ) {
        self.decodedBytes = decodedBytes
        self.planned = planned
        self.plugin = plugin
        self.key = key
        self.weight = weight
        self.work = work
        self.contents = contents
        self.dependencies = dependencies
    }

    /// Whether it depends on nothing: most files; such an asset can share a load with others.
    var isLeaf: Bool {
        if case .success(let requests) = dependencies { return requests.isEmpty }
        return false
    }
}
