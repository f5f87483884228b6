import Preload

/// Which loaded group holds which stored asset: the table behind ``AssetGroups``'s reference
/// counts. An asset's count is the number of loaded groups that hold it; what a caller's asset
/// brought with it (an atlas's pages, a pack's entries) is held with it.
struct GroupReferences {
    /// Loaded groups and the store names each holds.
    private(set) var held: [String: Set<String>] = [:]
    /// Groups asked for by name (the others were loaded because a group required them).
    private(set) var explicit: Set<String> = []
    /// What each caller's asset brought with it, by store name.
    private var brought: [String: Set<String>] = [:]

    func isLoaded(_ group: String) -> Bool { held[group] != nil }

    /// How many loaded groups hold `name`.
    func references(to name: String) -> Int { held.values.count { $0.contains(name) } }

    /// Records a finished batch that loaded `groups` (`requested` by name): each group holds
    /// the caller's assets its entries name (a folder entry: the files under its name) that are
    /// in the store, with what they brought. Entries already held by another group are held by
    /// this one too.
    mutating func record(_ report: PreloadReport, groups: [AssetManifest.Group], requested: [String], store: AssetStore) {
        for run in report.resultsByCaller {
            for result in run.dropFirst() where result.outcome.isLoaded {
                brought[run[0].request.name, default: []].insert(result.request.name)
            }
        }
        let loadedNames = report.results.filter(\.outcome.isLoaded).map(\.request.name)
        let alreadyHeld = heldNames
        for group in groups where held[group.name] == nil {
            var names = Set<String>()
            for entry in group.entries {
                let name = entry.request.name
                if entry.request.isFolder {
                    let prefix = name + "/"
                    names.formUnion(loadedNames.filter { $0.hasPrefix(prefix) })
                    names.formUnion(alreadyHeld.filter { $0.hasPrefix(prefix) })
                } else if store.entry(named: name) != nil {
                    names.insert(name)
                }
            }
            for name in names { names.formUnion(brought[name] ?? []) }
            held[group.name] = names
        }
        explicit.formUnion(requested)
    }

    /// Every name a loaded group holds.
    var heldNames: Set<String> { held.values.reduce(into: Set<String>()) { $0.formUnion($1) } }

    /// Forgets `group` and the groups it required that nothing else needs any more (and that were
    /// not asked for by name); returns the names no group holds now, to unload.
    mutating func release(_ group: String, manifest: AssetManifest) -> (groups: [String], names: [String]) {
        var released: [String] = []
        var freed = Set<String>()
        var pending = [group]
        explicit.remove(group)
        while let next = pending.popLast() {
            guard let names = held.removeValue(forKey: next) else { continue }
            released.append(next)
            freed.formUnion(names)
            for required in manifest.group(named: next)?.requires ?? [] where !explicit.contains(required) {
                let stillNeeded = held.keys.contains { manifest.group(named: $0)?.requires.contains(required) ?? false }
                if !stillNeeded { pending.append(required) }
            }
        }
        let stillHeld = heldNames
        let unloaded = freed.subtracting(stillHeld).sorted()
        for name in unloaded { brought[name] = nil }
        return (released, unloaded)
    }
}
