/// The store stage: puts what a batch loads into the coordinator's ``AssetStore`` (unless
/// ``PreloadOptions/storesAssets`` is off), under each request's name and path, and records
/// what the engine returned for an asset handed over. Not an outlet: it comes *before* the
/// ledger, so that whatever the outlets and the hooks hear of has been stored.
///
/// A finished load's assets are stored before they are recorded, outside the batch's lock,
/// taking each store shard's lock once per load. An entry that merged into an asset already
/// recorded (a second request for the same file) is stored when it is announced.
struct StoreStage: Sendable {
    let store: AssetStore?

    /// Makes room for `count` more assets, before planning adds them.
    func reserve(adding count: Int) {
        store?.reserveCapacity(adding: count)
    }

    /// Stores the loaded ones of a finished load's assets, each under the request it was planned
    /// for (a dependency when numbered from `callers` on). Returns the longest any store shard's
    /// lock was held.
    func store(_ finished: [FinishedAsset], callers: Int) -> Duration {
        guard let store else { return .zero }
        // Read in place, through a pointer, by their parts: nothing is copied but the asset stored
        // (``FinishedAsset``).
        return finished.withUnsafeBufferPointer { finished in
            var loaded: [Int] = []
            loaded.reserveCapacity(finished.count)
            for index in finished.indices {
                if finished[index].status == .loaded { loaded.append(index) }
            }
            guard let table = loaded.first.map({ finished[$0].planned.table }) else { return .zero }
            return store.insert(Loaded(finished: finished, loaded: loaded, table: table, callers: callers))
        }
    }

    /// The loaded ones of a finished load's assets, as the store reads them: each name and
    /// path where planning keeps them (the request, in place), the plugin's identifier and the
    /// asset read through a pointer (nothing is copied but what the table keeps).
    private struct Loaded: StoreBatch {
        let finished: UnsafeBufferPointer<FinishedAsset>
        let loaded: [Int]
        /// The table every asset of the load was planned in (one load, one batch), held once:
        /// reached through each asset's ``PlannedRequest``, it was retained and released twice
        /// an asset.
        let table: PlannedTable
        let callers: Int

        var count: Int { loaded.count }

        /// The `index`th loaded asset's entry in ``table``.
        private func entry(_ index: Int) -> Int {
            let asset = finished.baseAddress! + loaded[index]
            assert(asset.pointee.planned.table === table, "one load's assets are planned in one table")
            return asset.pointee.planned.entry
        }

        func naming(_ index: Int) -> (name: String, path: String?) {
            let offsets = offsets  // (the closure captures these, not the whole batch: a copy a call)
            return table.withRequest(entry(index)) { request in
                // ``AssetRequest/requestedPath``, without copying the path out of the request;
                // compared with the name before the name is copied (compared after, the name
                // was retained once more across the comparison).
                if request.pointee.origin == nil {
                    let raw = UnsafeRawPointer(request)
                    let same = AssetStore.isSame(raw + offsets.name, raw + offsets.path)
                    return (request.pointee.name, same ? nil : request.pointee.path)
                }
                let name = request.pointee.name
                return (name, request.pointee.origin == name ? nil : request.pointee.origin)
            }
        }

        /// Where a request keeps its name and its path (looked up once per load).
        let offsets = (name: MemoryLayout<AssetRequest>.offset(of: \.name)!, path: MemoryLayout<AssetRequest>.offset(of: \.path)!)

        func stored(_ index: Int, path: String?) -> AssetStore.Stored {
            // Its parts read through the pointer: the finished asset is not copied.
            let asset = finished.baseAddress! + loaded[index]
            return AssetStore.Stored(
                path: path, plugin: table.pluginIdentifier(asset.pointee.planned.entry), asset: asset.pointee.loaded,
                isDependency: asset.pointee.asset >= callers)
        }
    }

    /// Stores the asset the entries `waiters` share, if it loaded, under the names its other
    /// entries give it, in one insert: the first entry's name was stored with its load
    /// (``store(_:callers:)``), and an entry storing it as the one before it did (the same
    /// request repeated) adds nothing, so many requests for one file store it once per name.
    func store(sharers waiters: BatchState.Waiters, of state: borrowing BatchState) {
        guard let store, let more = waiters.more, case .loaded(let asset) = state.outcome(ofEntry: waiters.first) else { return }
        let plugin = state.records.plugin(of: waiters.first) ?? ""
        var entries: [AssetStore.Entry] = []
        var last = (request: state.request(ofEntry: waiters.first), isDependency: waiters.first >= state.callers.count)
        for entry in more {
            let request = state.request(ofEntry: entry), isDependency = entry >= state.callers.count
            if isDependency == last.isDependency, request.name == last.request.name, request.requestedPath == last.request.requestedPath {
                continue
            }
            entries.append(
                AssetStore.Entry(name: request.name, path: request.requestedPath, plugin: plugin, asset: asset, isDependency: isDependency))
            last = (request, isDependency)
        }
        if !entries.isEmpty { store.insert(entries) }
    }

    /// Stores the asset of `entry`, if it loaded.
    func store(entry: Int, of state: borrowing BatchState) {
        guard let store, case .loaded(let asset) = state.outcome(ofEntry: entry) else { return }
        let request = state.request(ofEntry: entry)
        store.insert(
            asset, name: request.name, path: request.requestedPath, plugin: state.records.plugin(of: state.asset(ofEntry: entry)) ?? "",
            isDependency: entry >= state.callers.count)
    }

    /// The engine took `item` over, returning `handle`; a `replacement` takes the asset's place.
    func handedOver(_ item: AssetHandOff.Item, handle: (any Sendable)?, replacement: HandedOverAsset?) {
        store?.handedOver(name: item.name, asset: item.asset, handle: handle, replacement: replacement)
    }
}

extension PlannedTable {
    /// Calls `body` with `entry`'s request, where the batch keeps it (the caller's, most); a
    /// copy only for an entry whose request is made when asked (one a bulk plugin listed).
    /// (``PlannedRequest/request``'s `_read` yields it in place, but a caller reading two of
    /// its strings through it copied the whole request, five strings retained and released,
    /// per read.)
    func withRequest<Result>(_ entry: Int, _ body: (UnsafePointer<AssetRequest>) -> Result) -> Result {
        if let kept = keptRequest(entry) {
            return withUnsafePointer(to: kept.pointee.request!) { body($0) }
        }
        if listedCount == 0 { return given.withUnsafeBufferPointer { body($0.baseAddress! + entry) } }  // most batches
        return withUnsafePointer(to: request(entry)) { body($0) }
    }
}
