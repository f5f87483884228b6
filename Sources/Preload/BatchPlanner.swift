/// Turns a batch's requests into distinct loads: finds each file, picks the plugin that claims
/// it, merges requests for the same file with the same plugin and options, follows declared
/// dependencies (refusing cycles), and weighs each load for progress.
///
/// Planning never throws: a request that cannot be planned gets its ``AssetError`` here and no
/// load; the rest of the batch goes on.
struct BatchPlanner {
    /// One distinct load.
    struct Node {
        let planned: PlannedRequest
        let plugin: any LoaderPlugin
        var weight: Int64
        /// Nodes this one depends on, with the request that declared each.
        var dependencies: [(request: AssetRequest, node: Int)] = []
        /// A planning failure (a failed dependency); such a node gets no operation.
        var failure: AssetError?
        /// Dependencies that failed while planning, for plugins that tolerate them.
        var dependencyFailures: [AssetRequest: AssetError] = [:]
    }

    /// One request: the caller's, or one a plugin declared as a dependency.
    struct Entry {
        let request: AssetRequest
        let isDependency: Bool
        var node: Int?
        var failure: AssetError?
    }

    /// What a file resolves to before merging.
    private struct MergeKey: Hashable {
        let device: UInt64
        let inode: UInt64
        let entry: String?
        let plugin: String
        let options: AssetOptions
    }

    let registry: PluginRegistry
    let weighting: ProgressWeighting
    let files: AssetFiles

    private(set) var nodes: [Node] = []
    private(set) var entries: [Entry] = []
    /// Node indices with every node after the nodes it depends on: the order to enqueue in.
    private(set) var order: [Int] = []
    private var nodeForKey: [MergeKey: Int] = [:]
    private var inProgress: Set<Int> = []

    init(registry: PluginRegistry, weighting: ProgressWeighting) {
        self.registry = registry
        self.weighting = weighting
        files = registry.files
    }

    /// Makes room for `count` requests (and as many loads), so the tables do not regrow.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
        nodes.reserveCapacity(count)
        order.reserveCapacity(count)
        nodeForKey.reserveCapacity(count)
    }

    /// Entries with no loads for `requests`: the batch was cancelled before they were planned.
    mutating func skip(_ requests: some Collection<AssetRequest>) {
        for request in requests { entries.append(Entry(request: request, isDependency: false)) }
    }

    /// Plans `requests`, adding to what earlier calls planned (duplicates merge across calls).
    mutating func plan(_ requests: some Collection<AssetRequest>) {
        for request in requests { _ = add(request, isDependency: false) }
    }

    /// Adds an entry for `request`; returns its node, or the reason it has none.
    private mutating func add(_ request: AssetRequest, isDependency: Bool) -> Result<Int, AssetError> {
        let entry = entries.count
        entries.append(Entry(request: request, isDependency: isDependency))
        let result = resolve(request)
        switch result {
        case .success(let node): entries[entry].node = node
        case .failure(let error): entries[entry].failure = error
        }
        return result
    }

    private mutating func resolve(_ request: AssetRequest) -> Result<Int, AssetError> {
        let file: FileFacts
        let plugin: any LoaderPlugin
        var header: [UInt8]?
        do {
            file = try files.facts(of: request.path)
            (plugin, header) = try claim(request, isDirectory: file.isDirectory)
        } catch {
            return .failure(error)
        }
        let key = MergeKey(device: file.device, inode: file.inode, entry: file.entry, plugin: plugin.identifier, options: request.options)
        if let existing = nodeForKey[key] {
            if inProgress.contains(existing) {
                return .failure(AssetError(
                    path: request.path, category: .dependencyCycle,
                    reason: "depends on itself through \(nodes[existing].planned.path)"))
            }
            return .success(existing)
        }
        let planned = PlannedRequest(request: request, plugin: plugin.identifier, file: file, files: files)
        let node = nodes.count
        nodes.append(Node(planned: planned, plugin: plugin, weight: weight(of: file, at: request.path, plugin: plugin, header: &header)))
        nodeForKey[key] = node
        inProgress.insert(node)
        defer {
            inProgress.remove(node)
            order.append(node)
        }
        do {
            for dependency in try plugin.dependencies(of: planned) {
                switch add(dependency, isDependency: true) {
                case .success(let dependencyNode):
                    nodes[node].dependencies.append((dependency, dependencyNode))
                    if let failure = nodes[dependencyNode].failure {
                        if plugin.toleratesFailedDependencies {
                            nodes[node].dependencyFailures[dependency] = failure
                        } else if nodes[node].failure == nil {
                            nodes[node].failure = .dependencyFailed(path: request.path, dependency: failure)
                        }
                    }
                case .failure(let error) where plugin.toleratesFailedDependencies:
                    nodes[node].dependencyFailures[dependency] = error
                case .failure(let error) where nodes[node].failure == nil:
                    nodes[node].failure = error.category == .dependencyCycle
                        ? AssetError(path: request.path, category: .dependencyCycle, reason: error.reason)
                        : .dependencyFailed(path: request.path, dependency: error)
                case .failure:
                    continue
                }
            }
        } catch {
            nodes[node].failure = AssetError(path: request.path, wrapping: error)
        }
        if let estimate = plugin.estimatedWork(for: planned) { nodes[node].weight = max(estimate, 1) }
        return .success(node)
    }

    /// Makes the operation for `node` (plugin code: call it outside any lock).
    func makeOperation(_ node: Int) -> AssetOperation {
        nodes[node].plugin.makeOperation(for: nodes[node].planned)
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
