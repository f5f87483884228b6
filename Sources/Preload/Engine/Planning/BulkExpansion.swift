/// One file a ``BulkExpandingPlugin`` expanded (or a ``BulkDependingPlugin`` listed the
/// dependencies of): the entries it listed (``BulkEntries``), which are the batch's caller
/// requests (or dependency entries) `first..<first + count`, with what planning and loading need
/// of them found once for the file (the container's facts, each entry's plugin).
final class BulkExpansion: Sendable {
    /// The caller request (and so the asset number, when it is not merged into an earlier one)
    /// of the first entry.
    let first: Int
    let entries: BulkEntries
    /// The expanding plugin, as registered.
    let expander: RegisteredPlugin
    /// The expanding plugin, as itself.
    let bulk: any BulkLoadingPlugin
    /// Whether the entries are the file's dependencies (``BulkDependingPlugin``), not the
    /// caller's requests: one without a store name is then named by its path, as a dependency's
    /// `AssetRequest(path:)` is.
    let areDependencies: Bool
    /// The container's facts: what an entry's facts are made of.
    let facts: FileFacts
    /// The options of the request that named the file: every entry's.
    let options: AssetOptions
    /// Each entry's plugin when ``BulkEntries/loaders`` names others (`nil`: no such plugin);
    /// empty when every entry is the expander's.
    private let loaders: [RegisteredPlugin?]

    /// `entries` as the caller requests from `first` on, with `options`, their plugins found
    /// in `registry`; throws when a column does not have one value per entry.
    init(
        _ entries: BulkEntries, first: Int, expander: RegisteredPlugin, bulk: any BulkLoadingPlugin, facts: FileFacts,
        options: AssetOptions, registry: PluginRegistry, areDependencies: Bool = false
    ) throws(AssetError) {
        if let column = entries.mismatchedColumn {
            throw AssetError(
                path: entries.container, category: .unsupported,
                reason: "plugin \"\(expander.identifier)\" listed \(entries.count) entries but a \(column) column that does not match them")
        }
        self.first = first
        self.entries = entries
        self.expander = expander
        self.bulk = bulk
        self.facts = facts
        self.options = entries.options ?? options
        self.areDependencies = areDependencies
        var found: [String: RegisteredPlugin?] = [:]
        loaders = entries.loaders.map { identifier in
            if identifier == BulkEntries.claimedAsFile { return nil }  // claimed at planning, entry by entry
            if let known = found[identifier] { return known }
            let plugin = registry.registered(identifier: identifier)
            found[identifier] = plugin
            return plugin
        }
    }

    /// The caller's request entry `index` is: what ``ExpandingPlugin/expand(_:)`` would have
    /// made of it (made when read: ``CallerRequests``).
    func request(at index: Int) -> AssetRequest {
        let name = entries.name(at: index)  // (once: a plugin may make it when asked)
        let storeName = entries.storeNames.isEmpty ? name : entries.storeNames[index]
        return AssetRequest(
            path: entries.container + "#" + name, name: areDependencies && entries.storeNames.isEmpty ? nil : storeName,
            plugin: entries.loaders.isEmpty ? expander.identifier : entries.isClaimedAsFile(index) ? nil : entries.loaders[index],
            options: options)
    }

    /// The path of entry `index`'s request: `CONTAINER#NAME`.
    func path(at index: Int) -> String { entries.container + "#" + entries.name(at: index) }

    /// The facts of entry `index`: the container's, with the entry's name and size.
    func file(at index: Int) -> FileFacts { FileFacts(entry: entries.name(at: index), in: facts, size: entries.size(at: index)) }

    /// The name entry `index` is stored under.
    func storeName(at index: Int) -> String { entries.storeNames.isEmpty ? entries.name(at: index) : entries.storeNames[index] }

    /// The caller requests the entries are.
    var callers: Range<Int> { first..<first + entries.count }

    /// The plugin that loads entry `index`; `nil` when ``BulkEntries/loaders`` names one the
    /// batch does not have, or ``BulkEntries/claimedAsFile`` (claimed when it is planned).
    func loader(of index: Int) -> RegisteredPlugin? { loaders.isEmpty ? expander : loaders[index] }

    /// ``loader(of:)``, or the error that fails entry `index` (requested as `path`, made only
    /// then: an entry's path is a string made per entry) when the plugin its row names is not
    /// registered.
    func registeredLoader(of index: Int, path: @autoclosure () -> String) throws(AssetError) -> RegisteredPlugin {
        guard let plugin = loader(of: index) else {
            throw AssetError(
                path: path(), category: .noLoader,
                reason: "plugin \"\(expander.identifier)\" lists it for plugin \"\(entries.loaders[index])\", which is not registered")
        }
        return plugin
    }

    /// The plugin's own number for entry `index`.
    func position(of index: Int) -> Int { entries.positions.isEmpty ? index : entries.positions[index] }
}

/// The files a batch's ``BulkExpandingPlugin``s expanded, in caller order (most batches: none).
struct BulkExpansions: Sendable {
    var all: [BulkExpansion] = []

    /// The expansion whose entries include caller request `entry`, and the entry's index in it.
    func expansion(containing entry: Int) -> (expansion: BulkExpansion, index: Int)? {
        guard !all.isEmpty, let (end, found) = last(startingAtOrBefore: entry), entry < end else { return nil }
        return (all[found], entry - all[found].first)
    }

    /// The last expansion whose entries start at or before caller request `entry` (its index in
    /// ``all``), and the caller request after its entries; `nil` when none does.
    @inline(__always)
    func last(startingAtOrBefore entry: Int) -> (end: Int, index: Int)? {
        // A binary search: a folder may hold many packs.
        var low = 0, high = all.count
        while low < high {
            let middle = (low + high) / 2
            if all[middle].first <= entry { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        return (all[low - 1].callers.upperBound, low - 1)
    }
}
