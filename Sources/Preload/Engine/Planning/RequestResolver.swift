/// Resolves requests: finds each file (one `open` and `fstat`, reading a small file whole while
/// at it; or the container's index for an entry), picks the plugin that claims it, weighs it,
/// and asks the plugin for its dependencies. It touches no batch state, so chunks of requests
/// resolve on several threads at once.
///
/// Resolving never throws: a request that cannot be resolved gets its ``AssetError``.
final class RequestResolver: Sendable {
    let registry: PluginRegistry
    let files: AssetFiles
    let weighting: ProgressWeighting
    /// Whether each request's decoded size is estimated (for a memory budget).
    let estimatesDecodedBytes: Bool
    /// What the batch may still read ahead, and where what it reads goes.
    let readAhead: ReadAheadBudget
    let memory: AssetMemory

    init(
        registry: PluginRegistry, weighting: ProgressWeighting, estimatesDecodedBytes: Bool = false,
        readAhead: ReadAheadBudget = ReadAheadBudget(), memory: AssetMemory
    ) {
        self.registry = registry
        files = registry.files
        self.weighting = weighting
        self.estimatesDecodedBytes = estimatesDecodedBytes
        self.readAhead = readAhead
        self.memory = memory
    }

    /// `request` resolved and its dependencies declared.
    func resolveAndDeclare(_ request: AssetRequest) -> Result<ResolvedRequest, AssetError> {
        resolve(request).map(declare)
    }

    /// `request` resolved, its dependencies not yet asked for.
    func resolve(_ request: AssetRequest) -> Result<ResolvedRequest, AssetError> {
        let file: FileFacts
        var contents: AssetBytes?
        let plugin: any LoaderPlugin
        var header: [UInt8]?
        do {
            if files.locate(request.path) == nil {
                // A container reads its entries where they are: reading it whole would be waste.
                let claimant =
                    try request.plugin.map { identifier throws(AssetError) in try namedPlugin(identifier, for: request) }
                    ?? registry.plugin(forExtensionOf: request.path)
                let probe = try FileProbe.probe(
                    request.path, readingAhead: !(claimant is any ContainerPlugin), budget: readAhead, memory: memory)
                (file, contents) = (probe.facts, probe.contents)
            } else {
                file = try files.facts(of: request.path)
            }
            plugin = try claim(request, isDirectory: file.isDirectory, contents: contents, header: &header)
        } catch {
            return .failure(error)
        }
        let planned = PlannedRequest(request: request, plugin: plugin.identifier, file: file, files: files)
        var decoded: Int64?
        if weighting == .decodedBytes || estimatesDecodedBytes {
            decoded = decodedEstimate(at: request.path, plugin: plugin, contents: contents, header: &header)
        }
        return .success(
            ResolvedRequest(
                planned: planned, plugin: plugin,
                key: AssetKey(file: file, plugin: plugin.identifier, options: request.options),
                weight: weighting == .decodedBytes ? max(decoded ?? file.size, 1) : max(file.size, 1), work: max(file.size, 1),
                contents: contents, decodedBytes: estimatesDecodedBytes ? Int(clamping: max(decoded ?? file.size, 0)) : 0))
    }

    /// `resolved` with its plugin's declared dependencies, and the work and weight the plugin
    /// estimates once it has looked (plugin code: call it outside any lock).
    func declare(_ resolved: ResolvedRequest) -> ResolvedRequest {
        let dependencies: Result<[AssetRequest], AssetError>
        do {
            dependencies = .success(try resolved.plugin.dependencies(of: resolved.planned))
        } catch {
            dependencies = .failure(AssetError(path: resolved.planned.path, wrapping: error))
        }
        let estimate = resolved.plugin.estimatedWork(for: resolved.planned).map { max($0, 1) }
        if estimate == nil, case .success(let requests) = dependencies, requests.isEmpty { return resolved }
        return ResolvedRequest(
            planned: resolved.planned, plugin: resolved.plugin, key: resolved.key, weight: estimate ?? resolved.weight,
            work: estimate ?? resolved.work, contents: resolved.contents, decodedBytes: resolved.decodedBytes, dependencies: dependencies)
    }

    /// The plugin for `request`; reads the file's `header` (from its `contents`, if read ahead)
    /// when it is needed to decide and not known yet.
    private func claim(
        _ request: AssetRequest, isDirectory: Bool, contents: AssetBytes?, header known: inout [UInt8]?
    ) throws(AssetError) -> any LoaderPlugin {
        let named = try request.plugin.map { identifier throws(AssetError) in try namedPlugin(identifier, for: request) }
        if isDirectory {
            guard let plugin = named ?? registry.plugin(forExtensionOf: request.path), plugin.acceptsDirectories else {
                throw AssetError(
                    path: request.path, category: .unreadable,
                    reason:
                        "is a folder no loader plugin loads as one asset (to load the files in it, request AssetRequest.folder(\"\(request.path)\"))")
            }
            return plugin
        }
        if let named { return named }
        if let plugin = registry.plugin(forExtensionOf: request.path) { return plugin }
        let header: [UInt8]
        do {
            header =
                try known ?? contents.map { Array($0.prefix(registry.longestHeader)) } ?? files.prefix(request.path, count: registry.longestHeader)
        } catch {
            throw AssetError(path: request.path, wrapping: error)
        }
        known = header
        if let plugin = registry.plugin(forHeader: header) { return plugin }
        // An entry nobody else claims is its container's to deliver (as raw bytes, typically).
        if let (_, _, container) = files.locate(request.path) { return container }
        throw AssetError(path: request.path, category: .noLoader, reason: "no loader plugin claims this file")
    }

    /// The plugin `request` names, or why it cannot be loaded.
    private func namedPlugin(_ identifier: String, for request: AssetRequest) throws(AssetError) -> any LoaderPlugin {
        guard let plugin = registry.plugin(identifier: identifier) else {
            throw AssetError(path: request.path, category: .noLoader, reason: "no plugin named '\(identifier)' is registered")
        }
        return plugin
    }

    /// The bytes the plugin says decoding the file at `path` makes, from its header; `nil` if it
    /// cannot say.
    private func decodedEstimate(at path: String, plugin: any LoaderPlugin, contents: AssetBytes?, header: inout [UInt8]?) -> Int64? {
        guard plugin.headerLength > 0 else { return nil }
        if header == nil { header = contents.map { Array($0.prefix(plugin.headerLength)) } ?? (try? files.prefix(path, count: plugin.headerLength)) }
        guard let header, let estimate = plugin.estimatedDecodedBytes(header: header) else { return nil }
        return Int64(max(estimate, 1))
    }
}
