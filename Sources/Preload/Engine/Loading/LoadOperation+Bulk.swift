/// The bulk path of a load (``BulkExpandingPlugin``): consecutive items that are entries of one
/// expanded file, loaded by its plugin, are handed to it as one ``BulkEntryRun``; each keeps its
/// own outcome, timing and events, as when loaded alone.
extension LoadOperation {
    /// The items from `index` on that the expander of the file `items[index]` is an entry of
    /// loads as one run, that expansion and the plugin that loads them; `nil` when
    /// `items[index]` is loaded alone (not such an entry, one another plugin loads unless the
    /// expander reads entries for others, one with dependencies or a planning warning, or a
    /// plugin that plans or loads asynchronously).
    func bulkRun(in items: LoadItems, from index: Int, expansions: BulkExpansions) -> (BulkExpansion, RegisteredPlugin, Range<Int>)? {
        guard let (expansion, _) = expansions.expansion(containing: items.asset(at: index)) else { return nil }
        let expander = expansion.expander
        guard !expander.loadsAsynchronously, !expander.plans else { return nil }
        let plugin = loading.table.plugin(items.asset(at: index))
        guard plugin === expander || (expansion.bulk.readsEntriesForOtherPlugins && !plugin.loadsAsynchronously) else { return nil }
        func joins(_ item: LoadItem) -> Bool {
            !item.hasDependencies && expansion.callers.contains(item.asset) && loading.table.plugin(item.asset) === plugin
                && !loading.table.hasPlannedWarnings(item.asset)
        }
        guard joins(items[index]) else { return nil }
        var end = index + 1
        while end < items.count, joins(items[end]) { end += 1 }
        return (expansion, plugin, index..<end)
    }

    /// Loads the items `run` through `expansion`'s plugin, appending how each ended to
    /// `finished`; returns when the last one ended. Items the plugin did not reach are cancelled
    /// (the batch was), failed with what it threw, or failed as not loaded.
    func loadRun(
        _ run: Range<Int>, of items: LoadItems, by expansion: BulkExpansion, plugin: RegisteredPlugin, started: ContinuousClock.Instant,
        thread: ThreadIdentity, waited: Duration, into finished: inout [FinishedAsset]
    ) -> ContinuousClock.Instant {
        let entries = BulkEntryRun(
            expansion: expansion, plugin: plugin, loading: loading, items: items, range: run, started: started, thread: thread, waited: waited)
        swap(&finished, &entries.finished)  // the run appends to the load's list itself
        var thrown: (any Error)?
        do {
            try expansion.bulk.loadEntries(entries)
        } catch {
            thrown = error
        }
        swap(&finished, &entries.finished)
        let (rest, from) = entries.rest
        guard !rest.isEmpty else { return from }
        if isCancelled {
            finished += rest.map { FinishedAsset($0, in: loading.table, outcome: .cancelled, duration: .zero, started: from, thread: thread) }
            return from
        }
        // Each entry not reached fails alone, by its path, as its own load would have.
        var last = from
        for item in rest {
            let error =
                thrown
                ?? AssetError(
                    path: loading.table.path(item.asset), category: .other,
                    reason: "plugin \"\(expansion.expander.identifier)\" returned from loading a run of entries without loading it")
            last = loading.load(item, started: last, thread: thread, waited: waited, into: &finished) { _ in throw error }
        }
        return last
    }
}
