/// The planning shortcut of the bulk path (``BulkExpandingPlugin``): an entry a bulk plugin
/// listed is resolved from what it listed, as resolving its request would have: the same facts
/// (the container's, with the entry's name and size), key, weight, work and decoded size, and
/// the same dependencies; without finding the entry by name in its container, claiming it or
/// asking its plugin once per entry.
extension RequestResolver {
    /// Caller request `entry` of `callers` resolved and its dependencies declared: from its row
    /// when a bulk plugin listed it (its request is not made), else as
    /// ``resolveAndDeclare(_:entry:readingAhead:)`` resolves any, read in place in `given`
    /// (``CallerRequests/given``).
    @inline(__always)
    func resolveAndDeclare(
        caller entry: Int, of callers: CallerRequests, given: UnsafeBufferPointer<AssetRequest>,
        readingAhead allowance: inout ReadAheadAllowance
    ) throws(AssetError) -> ResolvedRequest {
        guard let (expansion, index) = bulk.expansion(containing: entry) else {
            return try resolveAndDeclare(at: given.baseAddress! + (callers.givenIndex(of: entry) ?? entry), entry: entry, readingAhead: &allowance)
        }
        return try resolve(entry: entry, listedAt: index, by: expansion)
    }

    /// The batch's entry `entry`, entry `index` of `expansion`, resolved from its row (written
    /// into the batch's ``PlannedTable`` at `entry`) and its dependencies declared.
    private func resolve(entry: Int, listedAt index: Int, by expansion: BulkExpansion) throws(AssetError) -> ResolvedRequest {
        let entries = expansion.entries
        let plugin = try expansion.registeredLoader(of: index, path: expansion.path(at: index))
        let file = expansion.file(at: index)
        table.record(entry: entry, file: file, plugin: plugin)  // a caller's request: a slot, nothing besides
        let planned = table.planned(entry)
        var resolved = fromRow(
            index, of: expansion, file: file, planned: planned, plugin: plugin, options: expansion.options,
            decoded: entries.decodedBytes.isEmpty ? nil : Int64(max(entries.decodedBytes[index], 1)))
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

/// The planning shortcut of bulk dependencies (``BulkDependingPlugin``): a dependency entry a
/// plugin listed is resolved from its row, as resolving its request would have (the same facts,
/// claim, key, weight and decoded size), without finding it by name in its container.
extension RequestResolver {
    /// The dependency `request`, the batch's entry `entry` and entry `index` of `expansion`,
    /// resolved from its row (written into the batch's ``PlannedTable`` at `entry`, with the
    /// request); its dependencies not yet asked for.
    func resolve(
        dependency request: AssetRequest, entry: Int, listedAt index: Int, by expansion: BulkExpansion, lister: any BulkDependingPlugin
    ) throws(AssetError)
        -> ResolvedRequest
    {
        let entries = expansion.entries
        let file = expansion.file(at: index)
        var header: [UInt8]?
        let claim: PluginRegistry.Claim
        if entries.isClaimedAsFile(index) {  // the claim rule, as for the entry's own request
            let nominee = try registry.nominee(of: request)
            // The first bytes the rule reads (all a sniffing nominee's header, or the longest for
            // none), read by the entry's position when the plugin can; else by the rule, by name.
            let count = nominee.map { $0.claimHeaderLength > 0 ? $0.loader.headerLength : 0 } ?? registry.longestHeader
            if count > 0 {
                header = try? lister.entryPrefix(
                    at: expansion.position(of: index), in: entries.container, containerFacts: expansion.facts, count: count)
            }
            claim = try registry.claim(request, nominee: nominee, isDirectory: false, contents: nil, header: &header)
        } else {
            claim = PluginRegistry.Claim(plugin: try expansion.registeredLoader(of: index, path: request.path), warning: nil)
        }
        let plugin = claim.plugin
        table.record(entry: entry, file: file, plugin: plugin, extra: PlannedTable.Extra(request: request, files: nil, warning: claim.warning))
        var decoded = entries.decodedBytes.isEmpty ? nil : Int64(max(entries.decodedBytes[index], 1))
        if decoded == nil, weighting == .decodedBytes || estimatesDecodedBytes {
            decoded = decodedEstimate(at: request.path, plugin: plugin.loader, contents: nil, header: &header)
        }
        return fromRow(
            index, of: expansion, file: file, planned: table.planned(entry), plugin: plugin, options: request.options, decoded: decoded)
    }

    /// Entry `index` of `expansion` (`file`) resolved as `planned`, by `plugin`: weighed by its
    /// listed size, or by `decoded` (its decoded size, when known) as a file's weighs it.
    @inline(__always)
    private func fromRow(
        _ index: Int, of expansion: BulkExpansion, file: FileFacts, planned: PlannedRequest, plugin: RegisteredPlugin,
        options: AssetOptions, decoded: Int64?
    ) -> ResolvedRequest {
        let size = expansion.entries.size(at: index)
        return ResolvedRequest(
            planned: planned, plugin: plugin, keyHash: PlannedTable.keyHash(file: file, plugin: plugin.index, options: options),
            weight: weighting == .decodedBytes ? max(decoded ?? size, 1) : max(size, 1), work: max(size, 1), contents: nil,
            decodedBytes: estimatesDecodedBytes ? Int(clamping: max(decoded ?? size, 0)) : 0)
    }
}
