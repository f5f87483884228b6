/// One file a ``BulkExpandingPlugin`` expanded: the entries it listed (``BulkEntries``), which
/// are the batch's caller requests `first..<first + count`, with what planning and loading need
/// of them found once for the file (the container's facts, each entry's plugin).
final class BulkExpansion: Sendable {
    /// The caller request (and so the asset number, when it is not merged into an earlier one)
    /// of the first entry.
    let first: Int
    let entries: BulkEntries
    /// The expanding plugin, as registered.
    let expander: RegisteredPlugin
    /// The expanding plugin, as itself.
    let bulk: any BulkExpandingPlugin
    /// The container's facts: what an entry's facts are made of.
    let facts: FileFacts
    /// Each entry's plugin when ``BulkEntries/loaders`` names others (`nil`: no such plugin);
    /// empty when every entry is the expander's.
    private let loaders: [RegisteredPlugin?]

    /// `entries` as the caller requests from `first` on, their plugins found in `registry`;
    /// throws when a column does not have one value per entry.
    init(
        _ entries: BulkEntries, first: Int, expander: RegisteredPlugin, bulk: any BulkExpandingPlugin, facts: FileFacts,
        registry: PluginRegistry
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
        var found: [String: RegisteredPlugin?] = [:]
        loaders = entries.loaders.map { identifier in
            if let known = found[identifier] { return known }
            let plugin = registry.registered(identifier: identifier)
            found[identifier] = plugin
            return plugin
        }
    }

    /// The callers' requests the entries are, with `options`: what
    /// ``ExpandingPlugin/expand(_:)`` would return.
    func requests(options: AssetOptions) -> [AssetRequest] {
        let prefix = entries.container + "#"
        return entries.names.indices.map { index in
            AssetRequest(
                path: prefix + entries.names[index], name: entries.storeNames.isEmpty ? entries.names[index] : entries.storeNames[index],
                plugin: entries.loaders.isEmpty ? expander.identifier : entries.loaders[index], options: options)
        }
    }

    /// The caller requests the entries are.
    var callers: Range<Int> { first..<first + entries.count }

    /// The plugin that loads entry `index`; `nil` when ``BulkEntries/loaders`` names one the
    /// batch does not have.
    func loader(of index: Int) -> RegisteredPlugin? { loaders.isEmpty ? expander : loaders[index] }

    /// The plugin's own number for entry `index`.
    func position(of index: Int) -> Int { entries.positions.isEmpty ? index : entries.positions[index] }
}

/// The files a batch's ``BulkExpandingPlugin``s expanded, in caller order (most batches: none).
struct BulkExpansions: Sendable {
    var all: [BulkExpansion] = []

    /// The expansion whose entries include caller request `entry`, and the entry's index in it.
    func expansion(containing entry: Int) -> (expansion: BulkExpansion, index: Int)? {
        guard !all.isEmpty else { return nil }
        // The last expansion starting at or before `entry` (binary search: a folder may hold many packs).
        var low = 0, high = all.count
        while low < high {
            let middle = (low + high) / 2
            if all[middle].first <= entry { low = middle + 1 } else { high = middle }
        }
        guard low > 0, all[low - 1].callers.contains(entry) else { return nil }
        return (all[low - 1], entry - all[low - 1].first)
    }
}
