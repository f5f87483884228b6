/// What identifies one asset in a batch: the same file (reached by any path), entry, plugin and
/// options. Requests with equal keys merge into one load. The hash is computed once, where the
/// key is made, so that merging under the batch's lock only compares.
struct AssetKey: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let entry: String?
    let plugin: String
    let options: AssetOptions
    private let hash: Int

    init(file: FileFacts, plugin: String, options: AssetOptions) {
        device = file.device
        inode = file.inode
        entry = file.entry
        self.plugin = plugin
        self.options = options
        var hasher = Hasher()
        hasher.combine(device)
        hasher.combine(inode)
        hasher.combine(entry)
        hasher.combine(plugin)
        hasher.combine(options)
        hash = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (lhs: AssetKey, rhs: AssetKey) -> Bool {
        lhs.hash == rhs.hash && lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.entry == rhs.entry
            && lhs.plugin == rhs.plugin && lhs.options == rhs.options
    }
}

/// A request resolved without looking at the rest of the batch: its file found, the plugin that
/// claims it, its weight for progress and its work for grouping, and (once asked) the requests
/// its plugin declares it depends on.
struct ResolvedRequest: Sendable {
    let planned: PlannedRequest
    let plugin: any LoaderPlugin
    let key: AssetKey
    /// Its share of the batch's progress.
    var weight: Int64
    /// How much work loading it is, for sizing loads (bytes of the file, or the plugin's estimate).
    var work: Int64
    /// What ``RequestResolver/declare(_:)`` found: the dependencies, or why asking failed.
    var dependencies: Result<[AssetRequest], AssetError> = .success([])

    /// Whether it depends on nothing: most files; such an asset can share a load with others.
    var isLeaf: Bool {
        if case .success(let requests) = dependencies { return requests.isEmpty }
        return false
    }
}

/// Resolves requests: finds each file (one `stat`, or the container's index for an entry),
/// picks the plugin that claims it, weighs it, and asks the plugin for its dependencies. Pure:
/// it touches no batch state, so chunks of requests resolve on several threads at once.
///
/// Resolving never throws: a request that cannot be resolved gets its ``AssetError``.
struct RequestResolver: Sendable {
    let registry: PluginRegistry
    let files: AssetFiles
    let weighting: ProgressWeighting

    init(registry: PluginRegistry, weighting: ProgressWeighting) {
        self.registry = registry
        files = registry.files
        self.weighting = weighting
    }

    /// `request` resolved and its dependencies declared.
    func resolveAndDeclare(_ request: AssetRequest) -> Result<ResolvedRequest, AssetError> {
        resolve(request).map(declare)
    }

    /// `request` resolved, its dependencies not yet asked for.
    func resolve(_ request: AssetRequest) -> Result<ResolvedRequest, AssetError> {
        let file: FileFacts
        let plugin: any LoaderPlugin
        var header: [UInt8]?
        do {
            file = try files.facts(of: request.path)
            (plugin, header) = try claim(request, isDirectory: file.isDirectory)
        } catch {
            return .failure(error)
        }
        let planned = PlannedRequest(request: request, plugin: plugin.identifier, file: file, files: files)
        return .success(ResolvedRequest(
            planned: planned, plugin: plugin,
            key: AssetKey(file: file, plugin: plugin.identifier, options: request.options),
            weight: weight(of: file, at: request.path, plugin: plugin, header: &header), work: max(file.size, 1)))
    }

    /// `resolved` with its plugin's declared dependencies, and the work and weight the plugin
    /// estimates once it has looked (plugin code: call it outside any lock).
    func declare(_ resolved: ResolvedRequest) -> ResolvedRequest {
        var declared = resolved
        do {
            declared.dependencies = .success(try resolved.plugin.dependencies(of: resolved.planned))
        } catch {
            declared.dependencies = .failure(AssetError(path: resolved.planned.path, wrapping: error))
        }
        if let estimate = resolved.plugin.estimatedWork(for: resolved.planned) {
            declared.weight = max(estimate, 1)
            declared.work = max(estimate, 1)
        }
        return declared
    }

    /// The plugin for `request` and, when it had to be read to decide, the file's header.
    private func claim(_ request: AssetRequest, isDirectory: Bool) throws(AssetError) -> (any LoaderPlugin, [UInt8]?) {
        let named = try request.plugin.map { identifier throws(AssetError) in
            guard let plugin = registry.plugin(identifier: identifier) else {
                throw AssetError(path: request.path, category: .noLoader, reason: "no plugin named '\(identifier)' is registered")
            }
            return plugin
        }
        if isDirectory {
            guard let plugin = named ?? registry.plugin(forExtensionOf: request.path), plugin.acceptsDirectories else {
                throw AssetError(path: request.path, category: .unreadable, reason: "is a directory no loader plugin loads")
            }
            return (plugin, nil)
        }
        if let named { return (named, nil) }
        if let plugin = registry.plugin(forExtensionOf: request.path) { return (plugin, nil) }
        let header: [UInt8]
        do {
            header = try files.prefix(request.path, count: registry.longestHeader)
        } catch {
            throw AssetError(path: request.path, wrapping: error)
        }
        if let plugin = registry.plugin(forHeader: header) { return (plugin, header) }
        // An entry nobody else claims is its container's to deliver (as raw bytes, typically).
        if let (_, _, container) = files.locate(request.path) { return (container, header) }
        throw AssetError(path: request.path, category: .noLoader, reason: "no loader plugin claims this file")
    }

    private func weight(of file: FileFacts, at path: String, plugin: any LoaderPlugin, header: inout [UInt8]?) -> Int64 {
        guard weighting == .decodedBytes, plugin.headerLength > 0 else { return max(file.size, 1) }
        if header == nil { header = try? files.prefix(path, count: plugin.headerLength) }
        guard let header, let estimate = plugin.estimatedDecodedBytes(header: header) else { return max(file.size, 1) }
        return Int64(max(estimate, 1))
    }
}
