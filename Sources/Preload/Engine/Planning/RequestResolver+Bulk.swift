/// The planning shortcut of the bulk path (``BulkExpandingPlugin``): an entry a bulk plugin
/// listed is resolved from what it listed, as resolving its request would have: the same facts
/// (the container's, with the entry's name and size), key, weight, work and decoded size, and
/// the same dependencies; without finding the entry by name in its container, claiming it or
/// asking its plugin once per entry.
extension RequestResolver {
    /// Caller request `entry` (`request`) resolved and its dependencies declared: from its row
    /// when a bulk plugin listed it, else as ``resolveAndDeclare(_:entry:readingAhead:)`` resolves any.
    func resolveAndDeclare(
        _ request: AssetRequest, at entry: Int, readingAhead allowance: inout ReadAheadAllowance
    ) throws(AssetError) -> ResolvedRequest {
        guard let (expansion, index) = bulk.expansion(containing: entry) else {
            return try resolveAndDeclare(request, entry: entry, readingAhead: &allowance)
        }
        return try resolve(request, entry: entry, listedAt: index, by: expansion)
    }

    /// `request`, the batch's entry `entry` and entry `index` of `expansion`, resolved from its
    /// row (written into the batch's ``PlannedTable`` at `entry`) and its dependencies declared.
    private func resolve(
        _ request: AssetRequest, entry: Int, listedAt index: Int, by expansion: BulkExpansion
    ) throws(AssetError) -> ResolvedRequest {
        let entries = expansion.entries
        guard let plugin = expansion.loader(of: index) else {
            throw AssetError(
                path: request.path, category: .noLoader,
                reason: "plugin \"\(expansion.expander.identifier)\" lists it for plugin \"\(entries.loaders[index])\", which is not registered")
        }
        let size = entries.sizes[index]
        let file = FileFacts(entry: entries.names[index], in: expansion.facts, size: size)
        table.record(entry: entry, file: file, plugin: plugin)  // a caller's request: a slot, nothing besides
        let planned = table.planned(entry)
        let decoded = entries.decodedBytes.isEmpty ? nil : Int64(max(entries.decodedBytes[index], 1))
        var resolved = ResolvedRequest(
            planned: planned, plugin: plugin, keyHash: PlannedTable.keyHash(file: file, plugin: plugin.index, options: request.options),
            weight: weighting == .decodedBytes ? max(decoded ?? size, 1) : max(size, 1), work: max(size, 1), contents: nil,
            decodedBytes: estimatesDecodedBytes ? Int(clamping: max(decoded ?? size, 0)) : 0)
        guard plugin === expansion.expander else {
            // Another plugin's file (an image inside a zip): its plugin declares its dependencies.
            declare(&resolved)
            return resolved
        }
        if let dependencies = entries.dependencies[index], !dependencies.isEmpty { resolved.dependencies = .success(dependencies) }
        if let estimate = plugin.loader.estimatedWork(for: planned).map({ max($0, 1) }) {
            resolved.weight = estimate
            resolved.work = estimate
        }
        return resolved
    }
}
